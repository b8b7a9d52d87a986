/** Settings → "Terms and conditions" (#26a, docs/product.md#offer-versions): part of every offer version made while set. */
import { TextArea, type FieldMetadata } from "#app/components/ui/form";

export function TermsSettingsField({ field }: { field: FieldMetadata }) {
  return (
    <TextArea
      field={field}
      label="Terms and conditions (optional)"
      rows={8}
      hint="Part of every offer version you send while it is set: the client accepts them with the offer. Changing them changes the next version, not the ones already sent."
    />
  );
}
