import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

interface FieldShellProps {
  id: string;
  label: ReactNode;
  errors?: string[];
  hint?: ReactNode;
  children: ReactNode;
}

/** Label + control + error text wired with `aria-describedby` (accessible form field). */
function FieldShell({ id, label, errors, hint, children }: FieldShellProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

const controlClass =
  "w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-[invalid=true]:border-red-600";

function describedBy(id: string, errors?: string[], hint?: ReactNode) {
  return [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

type InputFieldProps = Omit<FieldShellProps, "children"> & InputHTMLAttributes<HTMLInputElement>;

/** A labelled `<input>` with its error message next to it. */
export function InputField({ id, label, errors, hint, ...input }: InputFieldProps) {
  return (
    <FieldShell id={id} label={label} errors={errors} hint={hint}>
      <input
        id={id}
        className={controlClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        {...input}
      />
    </FieldShell>
  );
}

type TextareaFieldProps = Omit<FieldShellProps, "children"> & TextareaHTMLAttributes<HTMLTextAreaElement>;

/** A labelled `<textarea>` with its error message next to it. */
export function TextareaField({ id, label, errors, hint, ...textarea }: TextareaFieldProps) {
  return (
    <FieldShell id={id} label={label} errors={errors} hint={hint}>
      <textarea
        id={id}
        className={controlClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        {...textarea}
      />
    </FieldShell>
  );
}

/** A submit button that shows a pending label and is disabled while pending. */
export function SubmitButton({
  pending,
  children,
  pendingLabel,
  ...rest
}: { pending?: boolean; pendingLabel?: string } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending || undefined}
      className="btn-primary inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-progress disabled:opacity-70"
      {...rest}
    >
      {pending ? (pendingLabel ?? "Working…") : children}
    </button>
  );
}
