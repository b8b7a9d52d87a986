/**
 * Conform-bound form controls: one line per field, label and error text wired for
 * assistive technology, browser validation with the same zod schema as the server.
 */
import { getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { useNavigation } from "react-router";
import type { z } from "zod";
import { InputField, TextareaField } from "./field";

/**
 * `useForm` with our defaults: validate on submit, then revalidate as the user types
 * (validating on blur shifts the layout under the pointer).
 */
export function useAppForm<S extends z.ZodType>(options: {
  id: string;
  schema: S;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Record<string, unknown>;
}) {
  const navigation = useNavigation();
  return useForm({
    id: options.id,
    lastResult: navigation.state === "idle" ? options.lastResult : undefined,
    defaultValue: options.defaultValue as never,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: options.schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
}

/** True while this page's form is being submitted (for pending buttons). */
export function useIsSubmitting(action?: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && (!action || navigation.formAction === action);
}

type TextInputProps = {
  field: FieldMetadata<unknown>;
  label: ReactNode;
  type?: "text" | "email" | "password" | "tel" | "url" | "date" | "time" | "number" | "hidden";
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">;

/** A labelled input bound to a conform field. */
export function TextInput({ field, label, type = "text", hint, ...rest }: TextInputProps) {
  const { key: _key, ...props } = getInputProps(field as FieldMetadata<string>, { type, ariaAttributes: false });
  return <InputField label={label} hint={hint} {...props} id={field.id} errors={field.errors} {...rest} />;
}

/** A labelled textarea bound to a conform field. */
export function TextArea({
  field,
  label,
  hint,
  ...rest
}: { field: FieldMetadata<unknown>; label: ReactNode; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { key: _key, ...props } = getTextareaProps(field as FieldMetadata<string>, { ariaAttributes: false });
  return <TextareaField label={label} hint={hint} {...props} id={field.id} errors={field.errors} {...rest} />;
}

/** A labelled select bound to a conform field. */
export function SelectInput({
  field,
  label,
  options,
  placeholder,
  ...rest
}: {
  field: FieldMetadata<unknown>;
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const { key: _key, ...props } = getSelectProps(field as FieldMetadata<string>, { ariaAttributes: false });
  const errorId = `${field.id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        {...props}
        id={field.id}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? errorId : undefined}
        className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm"
        {...rest}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {field.errors?.length ? (
        <p id={errorId} className="text-sm text-red-700">
          {field.errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level message (docs/product.md#form-messages "error paragraph"), announced to screen readers. */
export function FormMessage({ id, errors, success }: { id?: string; errors?: string[]; success?: string | null }) {
  if (success) {
    return (
      <p id={id} role="status" className="rounded-md border border-green-300 bg-green-50 px-3 py-2 font-medium text-green-900">
        {success}
      </p>
    );
  }
  if (!errors?.length) return <p id={id} role="status" className="sr-only" />;
  return (
    <p id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
      {errors.join(" ")}
    </p>
  );
}
