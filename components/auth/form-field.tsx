import { useId } from "react";

/*
 * The pieces the sign-in and security forms share: a labelled input with its hint and error (tied to it with
 * aria-describedby, marked aria-invalid), and a form-level error region that exists from the start, so that
 * screen readers announce a message when one appears in it.
 */

export function FormError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={id} className="auth-form-error" role="alert">
      {message}
    </p>
  );
}

export function TextField(props: {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  autoComplete: string;
  defaultValue?: string;
  hint?: string;
  error?: string;
  required?: boolean;
  maxLength?: number;
  inputRef?: React.Ref<HTMLInputElement>;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="auth-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        ref={props.inputRef}
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required={props.required}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        dir="auto"
      />
      {props.hint && (
        <p id={`${id}-hint`} className="auth-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="auth-field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
