import { useId } from "react";

/*
 * The labelled fields of the settings forms: a text input or a select with its hint and error. The error sits
 * right after its field and is announced (role=alert); both are tied to the field with aria-describedby.
 */

interface FieldProps {
  name: string;
  label: string;
  hint?: string;
  error?: string;
}

function described(id: string, { hint, error }: Pick<FieldProps, "hint" | "error">): string | undefined {
  return [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
}

function HintAndError({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="auth-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="auth-field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export function SettingsTextField(
  props: FieldProps & {
    type?: "text" | "password";
    autoComplete: string;
    defaultValue?: string;
    required?: boolean;
    maxLength?: number;
  },
) {
  const id = useId();
  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required={props.required}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described(id, props)}
        dir="auto"
      />
      <HintAndError id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function SettingsSelectField(
  props: FieldProps & { defaultValue: string; options: readonly { value: string; label: string; lang?: string }[] },
) {
  const id = useId();
  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described(id, props)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
      <HintAndError id={id} hint={props.hint} error={props.error} />
    </div>
  );
}
