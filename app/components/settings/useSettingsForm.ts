import { useFetcher } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useEffect, useState } from "react";
import type { ZodType } from "zod";
import { keyedErrorMap, translateMessage, useTranslatedError } from "../../i18n/messages";
import { fieldErrorsFromZod, type ErrorBody } from "../../lib/errors";

/**
 * The state every settings tab keeps: what was saved, what is being edited,
 * whether they differ (the save button and the unsaved-changes prompt), the
 * "Save successful" toast, and field errors from the form's zod schema here
 * or from the server's answer. `save` checks the values with the same schema
 * the action uses and posts them as JSON (plus `extra`, e.g. an intent); the
 * action answers `{ [savedKey]: values }`, which becomes the new saved state.
 */
export function useSettingsForm<T extends object, B extends object = T>({
  initial,
  schema,
  t,
  savedKey = "saved",
  extra,
  toBody,
}: {
  initial: T;
  schema: ZodType<B>;
  t: TFunction;
  savedKey?: string;
  extra?: Record<string, string>;
  /**
   * The body when it is not the values themselves (General posts the shop
   * record's nested shape). The answer then only confirms: the new saved
   * state comes back as `initial` when the page's data reloads.
   */
  toBody?: (values: T) => B;
}) {
  const fetcher = useFetcher<Record<string, unknown> & Partial<ErrorBody>>();
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useState(false);
  // Keyed by content: a revalidation (e.g. after an upload) brings an equal
  // object, which must not throw away what is being edited.
  const incoming = JSON.stringify(initial);
  useEffect(() => {
    setSaved(JSON.parse(incoming));
    setValues(JSON.parse(incoming));
  }, [incoming]);
  const answer = fetcher.data?.[savedKey] as T | undefined;
  const answerIsValues = !toBody;
  useEffect(() => {
    if (fetcher.state === "idle" && answer) {
      if (answerIsValues) {
        setSaved(answer);
        setValues(answer);
      }
      setToast(true);
    }
  }, [fetcher.state, answer, answerIsValues]);

  const serverError = useTranslatedError(fetcher.data?.error);
  const serverFields = serverError?.fields ?? {};
  const errorFor = (path: (keyof T & string) | (string & {})) =>
    translateMessage(t, clientErrors[path]) ?? serverFields[path];

  function save() {
    const parsed = schema.safeParse(toBody ? toBody(values) : values, { errorMap: keyedErrorMap });
    if (!parsed.success) {
      setClientErrors(fieldErrorsFromZod(parsed.error.issues));
      return;
    }
    setClientErrors({});
    fetcher.submit({ ...parsed.data, ...extra }, { method: "post", encType: "application/json" });
  }

  return {
    values,
    setValues,
    dirty: JSON.stringify(values) !== JSON.stringify(saved),
    busy: fetcher.state !== "idle",
    save,
    serverError,
    errorFor,
    toast,
    dismissToast: () => setToast(false),
  };
}
