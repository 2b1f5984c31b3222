"use client";

import { useState, type FormEvent } from "react";

/** What a form shows about a failed save: a message for the whole form and one per named field. */
export type FormErrors<F extends string> = { form?: string; fields: Partial<Record<F, string>> };

/**
 * The state of a form that saves through the API: `busy` while a save runs (a second submit meanwhile is ignored),
 * `saved` once one succeeded (the save sets it), and the errors. `submitWith(save)` is the form's onSubmit: it
 * clears the last outcome, runs `save` with the form, and turns anything thrown (the network) into `genericError`.
 */
export function useFormSave<F extends string>(genericError: string) {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {} });

  function submitWith(save: (data: FormData, form: HTMLFormElement) => Promise<unknown>) {
    return async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (busy) return;
      const form = event.currentTarget;
      setBusy(true);
      setSaved(false);
      setErrors({ fields: {} });
      try {
        await save(new FormData(form), form);
      } catch {
        setErrors({ form: genericError, fields: {} });
      } finally {
        setBusy(false);
      }
    };
  }

  return { busy, setBusy, saved, setSaved, errors, setErrors, submitWith };
}
