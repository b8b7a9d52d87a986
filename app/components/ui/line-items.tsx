/**
 * The frame of a repeatable list of line items in a form (invoice items, offer items): the
 * fieldset, each row's Remove button, the list's errors and "+ Add item". Without JavaScript the
 * buttons post conform list intents (`__intent__`), which the server applies and answers with the
 * changed rows; with JavaScript they change the rows in place.
 */
import type { ReactNode } from "react";
import { buttonClass } from "./button";

/** A conform list intent, posted by Add / Remove without JavaScript (parsed on the server by conform). */
function listIntent(
  intent:
    { type: "insert"; payload: { name: string; defaultValue: unknown } } | { type: "remove"; payload: { name: string; index: number } },
): string {
  return JSON.stringify(intent);
}

/**
 * @param name - the list field's name (e.g. "items").
 * @param rows - the rows, each with a stable `key`.
 * @param renderRow - the row's inputs (the Remove button is added after them).
 * @param rowClass - the grid of a row (its last column holds the Remove button).
 * @param emptyRow - the values of a new row, as text.
 * @param max - the most rows; "+ Add item" is disabled from there.
 * @param hydrated - whether React runs (else the buttons post their intents).
 * @param onAdd - adds a row in place (JavaScript).
 * @param onRemove - removes the row with this key in place (JavaScript).
 * @param errors - the list's own errors, shown under the rows with `errorId`.
 * @param children - what follows "+ Add item" inside the fieldset (e.g. a total).
 * @param legend - the fieldset's legend (default "Line items").
 * @param noun - what a row is, in the buttons ("Remove item 2", "+ Add item"; default "item").
 * @param min - the fewest rows (Remove is disabled at it; default 1).
 */
export function LineItems<Row extends { key: number }>(props: {
  name: string;
  rows: Row[];
  renderRow: (row: Row, index: number) => ReactNode;
  rowClass: string;
  fieldsetClass: string;
  emptyRow: Record<string, string>;
  max: number;
  hydrated: boolean;
  onAdd: () => void;
  onRemove: (key: number) => void;
  errors: string[] | undefined;
  errorId: string;
  children?: ReactNode;
  legend?: string;
  noun?: string;
  min?: number;
}) {
  const noun = props.noun ?? "item";
  const { name, rows, hydrated } = props;
  return (
    <fieldset className={props.fieldsetClass}>
      <legend className="px-1 font-semibold">{props.legend ?? "Line items"}</legend>
      {rows.map((row, index) => (
        <div key={row.key} className={props.rowClass}>
          {props.renderRow(row, index)}
          <div className="sm:pt-6">
            <button
              type="submit"
              name="__intent__"
              value={listIntent({ type: "remove", payload: { name, index } })}
              formNoValidate
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                props.onRemove(row.key);
              }}
              className={buttonClass("danger")}
              aria-label={`Remove ${noun} ${index + 1}`}
              disabled={rows.length <= (props.min ?? 1)}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      {props.errors?.length ? (
        <p id={props.errorId} className="text-sm text-red-700">
          {props.errors.join(" ")}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          name="__intent__"
          value={listIntent({ type: "insert", payload: { name, defaultValue: props.emptyRow } })}
          formNoValidate
          onClick={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            props.onAdd();
          }}
          className={buttonClass("secondary")}
          disabled={rows.length >= props.max}
        >
          + Add {noun}
        </button>
      </div>
      {props.children}
    </fieldset>
  );
}
