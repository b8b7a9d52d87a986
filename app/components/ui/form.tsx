/**
 * Form state and controls (docs/architecture.md#forms, ADR 010): one line per field, label and
 * error text wired for assistive technology. The browser checks the HTML constraints the server
 * derived from the form's zod schema (`formConstraints`, passed through the loader) and shows the
 * schema's own messages; the server validates everything again. Neither zod nor conform runs in
 * the browser.
 */
import {
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useNavigation } from "react-router";
import {
  constraintKey,
  constraintMessage,
  isControl,
  valueAt,
  type FieldConstraint,
  type FormConstraints,
  type FormResult,
} from "#app/lib/forms";
import { InputField, TextareaField } from "./field";

/** Messages per field name (`""`: about the whole form). */
type Errors = Record<string, string[]>;

/** One field of a form made by {@link useAppForm}. */
export interface FieldMetadata {
  /** The control's id: `<form id>-<name>` (its error text is `<id>-error`). */
  id: string;
  name: string;
  errorId: string;
  descriptionId: string;
  /** Its messages, from the browser's check or the server's answer. */
  errors?: string[];
  /** The value the control starts with (the posted one after a refusal, else the default). */
  initialValue?: unknown;
  /** The current text, as typed (updated on every input). */
  value?: string;
  /** Its HTML constraints and their messages, from the server. */
  constraint?: FieldConstraint;
}

/** The form's props for `<Form>` / `<form>` (see {@link getFormProps}). */
export interface FormProps {
  id: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onInput: (event: FormEvent<HTMLFormElement>) => void;
  "aria-describedby"?: string;
}

/** A form made by {@link useAppForm}. */
export interface FormMetadata {
  id: string;
  /** The id of the form-level message ({@link FormMessage}). */
  errorId: string;
  /** Messages about the whole form (from the server). */
  errors?: string[];
  /** True once the user changed a field since the last answer. */
  dirty: boolean;
  props: FormProps;
}

function errorsOf(result: FormResult | undefined): Errors {
  const errors: Errors = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
}

interface FormState {
  /** The server answer these errors come from. */
  reply: FormResult | undefined;
  errors: Errors;
  /** Revalidate fields as the user types (after a first submit). */
  submitted: boolean;
  dirty: boolean;
  values: Record<string, string>;
}

/**
 * A form's state: validate on submit, then revalidate each field as the user types (validating
 * on blur shifts the layout under the pointer). The browser checks the fields' HTML constraints
 * (without JavaScript too, with its own wording); with JavaScript the messages are the schema's,
 * next to the fields. An answer from the server replaces them; a successful one (`initialValue:
 * null`) clears the form.
 *
 * @param options.id - the form's id (unique on the page); fields are `<id>-<name>`.
 * @param options.constraint - `formConstraints(schema)` from the route's loader.
 * @param options.lastResult - the action's `result` (`FormReply.result`).
 * @param options.defaultValue - the fields' values before any answer (e.g. the record being edited).
 * @returns the form and its fields by name.
 */
export function useAppForm<Name extends string = string>(options: {
  id: string;
  constraint?: FormConstraints<Name>;
  lastResult?: FormResult | null;
  defaultValue?: Record<string, unknown>;
}): [FormMetadata, Record<Name, FieldMetadata>] {
  const { id } = options;
  const constraint = (options.constraint ?? {}) as FormConstraints;
  const navigation = useNavigation();
  const reply = navigation.state === "idle" ? (options.lastResult ?? undefined) : undefined;
  const [state, setState] = useState<FormState>(() => ({
    reply,
    errors: errorsOf(reply),
    submitted: reply !== undefined,
    dirty: false,
    values: {},
  }));
  // A new answer from the server: its messages replace the browser's.
  if (reply && reply !== state.reply) {
    setState({ reply, errors: errorsOf(reply), submitted: true, dirty: false, values: reply.initialValue === null ? {} : state.values });
  }
  const current = useRef({ state, constraint });
  current.current = { state, constraint };

  // A saved form starts again from its defaults.
  useEffect(() => {
    if (state.reply?.initialValue === null) (document.getElementById(id) as HTMLFormElement | null)?.reset();
  }, [state.reply, id]);

  // The browser refuses to submit invalid fields and fires `invalid` on each: its bubble gives way
  // to the schema's messages next to the fields.
  useEffect(() => {
    const form = document.getElementById(id);
    if (!(form instanceof HTMLFormElement)) return;
    let queued = false;
    const onInvalid = (event: Event) => {
      event.preventDefault();
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        const errors = checkControls(form, current.current.constraint);
        setState((s) => ({ ...s, errors, submitted: true }));
        const first = Object.keys(errors)[0];
        if (first !== undefined) (form.elements.namedItem(first) as HTMLElement | null)?.focus?.();
      });
    };
    form.addEventListener("invalid", onInvalid, true);
    return () => form.removeEventListener("invalid", onInvalid, true);
  }, [id]);

  const formErrors = state.errors[""];
  const props: FormProps = {
    id,
    onSubmit: (event) => {
      if (event.defaultPrevented) return;
      const form = event.currentTarget;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      // The browser has checked the constraints; what it lets through but the schema refuses (spaces
      // only) is caught here. A `noValidate` form (the browser's bubbles name one field at a time) is
      // checked here whole, so every message shows at once; a `formNoValidate` button skips the checks.
      // The server's answer brings the next messages.
      const errors = submitter?.formNoValidate ? {} : checkControls(form, current.current.constraint);
      setState((s) => ({ ...s, errors, submitted: true }));
      const first = Object.keys(errors)[0];
      if (first !== undefined) {
        event.preventDefault();
        (form.elements.namedItem(first) as HTMLElement | null)?.focus?.();
      }
    },
    onInput: (event) => {
      const control = event.target as Element;
      if (!isControl(control)) return;
      const { name } = control;
      const value =
        control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")
          ? control.checked
            ? control.value
            : ""
          : control.value;
      setState((s) => {
        const errors = { ...s.errors };
        if (s.submitted) {
          const message = constraintMessage(control, current.current.constraint[constraintKey(name)]);
          if (message) errors[name] = [message];
          else delete errors[name];
        }
        return { ...s, errors, dirty: true, values: { ...s.values, [name]: value } };
      });
    },
    "aria-describedby": formErrors?.length ? `${id}-error` : undefined,
  };
  const form: FormMetadata = { id, errorId: `${id}-error`, errors: formErrors, dirty: state.dirty, props };

  const initial =
    state.reply && state.reply.initialValue !== null && state.reply.initialValue !== undefined
      ? state.reply.initialValue
      : options.defaultValue;
  const fields = new Proxy({} as Record<Name, FieldMetadata>, {
    get(_target, name) {
      if (typeof name !== "string") return undefined;
      const fieldId = `${id}-${name}`;
      const initialValue = valueAt(initial, name);
      const typed = state.values[name];
      return {
        id: fieldId,
        name,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        errors: state.errors[name],
        initialValue,
        value: typed ?? (typeof initialValue === "string" ? initialValue : initialValue == null ? undefined : String(initialValue)),
        constraint: constraint[constraintKey(name)],
      } satisfies FieldMetadata;
    },
  });
  return [form, fields];
}

/** The browser-side messages of every control of `form`, by name (in the form's order). */
function checkControls(form: HTMLFormElement, constraint: FormConstraints): Errors {
  const errors: Errors = {};
  for (const element of form.elements) {
    if (!isControl(element) || errors[element.name]) continue;
    const message = constraintMessage(element, constraint[constraintKey(element.name)]);
    if (message) errors[element.name] = [message];
  }
  return errors;
}

/** The props of a `<Form>` made by {@link useAppForm}: `<Form method="post" {...getFormProps(form)}>`. */
export function getFormProps(form: FormMetadata): FormProps {
  return form.props;
}

/** The constraint attributes of a field. */
function constraintProps(field: FieldMetadata) {
  const c = field.constraint;
  return {
    required: c?.required || undefined,
    minLength: c?.minLength,
    maxLength: c?.maxLength,
    min: c?.min,
    max: c?.max,
    step: c?.step,
    pattern: c?.pattern,
    multiple: c?.multiple || undefined,
  };
}

function defaultText(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * The props of an `<input>` for a field: name, constraints and its starting value
 * (`defaultChecked` for a checkbox, checked when the value is `true` or `"on"`).
 */
export function getInputProps(field: FieldMetadata, { type }: { type: NonNullable<InputHTMLAttributes<HTMLInputElement>["type"]> }) {
  const base = { id: field.id, name: field.name, type, ...constraintProps(field) };
  if (type === "checkbox" || type === "radio") {
    return { ...base, value: "on", defaultChecked: field.initialValue === true || field.initialValue === "on" };
  }
  return { ...base, defaultValue: defaultText(field.initialValue) };
}

/** True while this page's form is being submitted (for pending buttons). */
export function useIsSubmitting(action?: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "submitting" && (!action || navigation.formAction === action);
}

type TextInputProps = {
  field: FieldMetadata;
  label: ReactNode;
  type?: "text" | "email" | "password" | "tel" | "url" | "date" | "time" | "number" | "hidden";
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">;

/** A labelled input bound to a form field. */
export function TextInput({ field, label, type = "text", hint, ...rest }: TextInputProps) {
  return <InputField label={label} hint={hint} {...getInputProps(field, { type })} errors={field.errors} {...rest} />;
}

/** A labelled textarea bound to a form field. */
export function TextArea({
  field,
  label,
  hint,
  ...rest
}: { field: FieldMetadata; label: ReactNode; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { required, minLength, maxLength } = constraintProps(field);
  return (
    <TextareaField
      label={label}
      hint={hint}
      id={field.id}
      name={field.name}
      required={required}
      minLength={minLength}
      maxLength={maxLength}
      defaultValue={defaultText(field.initialValue)}
      errors={field.errors}
      {...rest}
    />
  );
}

/** A labelled select bound to a form field. */
export function SelectInput({
  field,
  label,
  options,
  placeholder,
  ...rest
}: {
  field: FieldMetadata;
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={field.id}
        name={field.name}
        required={field.constraint?.required || undefined}
        defaultValue={defaultText(field.initialValue)}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
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
        <p id={field.errorId} className="text-sm text-red-700">
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
