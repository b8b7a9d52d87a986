import { TextInput } from "#app/components/ui/form";

/**
 * Settings › "Commission hold (days)" (docs/product.md#commissions-ledger): how long a commission
 * entry stays Pending before it can be paid out — the refund window. Its own file so the
 * settings groups of other features merge cleanly.
 */
export function CommissionHoldField({ field }: { field: Parameters<typeof TextInput>[0]["field"] }) {
  return (
    <TextInput
      field={field}
      label="Commission hold (days)"
      inputMode="numeric"
      hint="A commission becomes payable this many days after the payment it is on (the refund window). 0 pays at once."
    />
  );
}
