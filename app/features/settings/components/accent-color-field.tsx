/**
 * The accent colour field (docs/product.md#settings): the hex text field, and beside it a colour
 * picker that writes its choice into the field (with JavaScript; without it the hex field alone).
 * The contrast rule is checked by the server (the settings schema).
 */
import { useState } from "react";
import { TextInput, type FieldMetadata } from "#app/components/ui/form";
import { useHydrated } from "#app/lib/use-hydrated";
import { normalizeHexColor } from "../settings-rules";

/** The picker's colour while the field holds no valid hex colour (the default accent). */
const DEFAULT_PICK = "#1d3fa3";

export function AccentColorField({ field }: { field: FieldMetadata }) {
  const hydrated = useHydrated();
  const [pick, setPick] = useState(() => normalizeHexColor(String(field.initialValue ?? "")) ?? DEFAULT_PICK);
  return (
    <div className="flex items-start gap-3">
      <div className="min-w-0 flex-1">
        <TextInput
          field={field}
          label="Accent colour (optional)"
          placeholder="#1d3fa3"
          autoComplete="off"
          hint="A hex colour for buttons, links and the header. White text on it must stay readable (contrast of at least 4.5:1); the dark theme gets a lighter shade of it."
          onInput={(event) => {
            const hex = normalizeHexColor(event.currentTarget.value);
            if (hex) setPick(hex);
          }}
        />
      </div>
      {hydrated ? (
        <div className="flex shrink-0 flex-col gap-1">
          <label htmlFor={`${field.id}-picker`} className="text-sm font-medium text-slate-800">
            Pick
          </label>
          <input
            id={`${field.id}-picker`}
            type="color"
            value={pick}
            className="h-10 w-14 cursor-pointer rounded-md border border-slate-400 bg-white p-1"
            onChange={(event) => {
              const hex = event.currentTarget.value;
              setPick(hex);
              const text = document.getElementById(field.id) as HTMLInputElement | null;
              if (!text) return;
              text.value = hex;
              text.dispatchEvent(new Event("input", { bubbles: true }));
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
