/** Settings → default deposit (docs/product.md#deposits, #25a): a whole percent asked on new invoices. */
import { TextInput, type FieldMetadata } from "#app/components/ui/form";

export function DepositSettingsField({ field }: { field: FieldMetadata }) {
  return (
    <TextInput
      field={field}
      label="Default deposit (%)"
      inputMode="numeric"
      hint="Asked first on every new invoice, as a percentage of its total (0 = no deposit). Each invoice's deposit can be changed on its page."
    />
  );
}
