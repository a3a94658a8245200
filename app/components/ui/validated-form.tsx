import type { SubmissionResult } from "@conform-to/react";
import type { TFunction } from "i18next";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FocusEvent, type FormEvent } from "react";
import type { z } from "zod";
import type { BridgeProps, FormControls } from "./conform-bridge";
import { replyView, withFallbackFields, type Constraint, type DefaultValue, type FieldView, type FormView } from "./form-view";

/** Loads a form's zod schema maker (it takes the page's translations for its messages). */
export type SchemaLoader<Schema extends z.ZodObject> = () => Promise<(t: TFunction) => Schema>;

const ConformBridge = lazy(() => import("./conform-bridge").then((module) => ({ default: module.ConformBridge })));

type Options<Schema extends z.ZodObject> = {
  id: string;
  schema: SchemaLoader<Schema>;
  /** The schema's constraint attributes (the loader's `formConstraint(schema)`): the same on the server and before conform. */
  constraint: Record<string, Constraint>;
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue?: DefaultValue;
  /** The page's translations, for a schema whose messages take them (the staff pages give texts of their own). */
  t?: TFunction;
};

const sameView = (a: FormView | null, b: FormView) => a !== null && JSON.stringify(a) === JSON.stringify(b);

/** The schema made once with the page's translations, for conform. */
function SchemaBridge({ makeSchema, t, ...props }: Omit<BridgeProps, "schema"> & { makeSchema: (t: TFunction) => z.ZodObject; t: TFunction | undefined }) {
  const [schema] = useState(() => makeSchema(t as TFunction));
  return <ConformBridge {...props} schema={schema} />;
}

/**
 * A form validated with conform and the action's zod schema, where conform and zod (about 40 kB gzip) load on the
 * form's first focus rather than with the page (docs/performance-history.md): until then the page renders the action's reply
 * (errors, kept values, constraint attributes). A submit while the code loads waits for it (3 s at most, then it goes
 * to the action, which answers with the same texts); fields that lost focus before it arrived are validated when it does. Spread `formProps` on the `<Form>` and
 * render `validation` inside it.
 */
export function useValidatedForm<Schema extends z.ZodObject>({ id, schema, constraint, lastResult, defaultValue, t }: Options<Schema>) {
  const [makeSchema, setMakeSchema] = useState<((t: TFunction) => Schema) | null>(null);
  /** idle until the first focus, then loading, ready, or failed (the action checks every submit anyway). */
  const state = useRef<"idle" | "loading" | "ready" | "failed">("idle");
  const [live, setLive] = useState<FormView | null>(null);
  const controls = useRef<FormControls | null>(null);
  const blurred = useRef<string[]>([]);
  /** A submit made while the checks were loading: made again once they are here (or have failed). */
  const held = useRef<{ form: HTMLFormElement; submitter: HTMLElement | null } | null>(null);
  const holdTimer = useRef<number | undefined>(undefined);
  // A form that goes away drops a submit it held (and its timer).
  useEffect(
    () => () => {
      window.clearTimeout(holdTimer.current);
      held.current = null;
    },
    [],
  );
  const release = useCallback(() => {
    const submit = held.current;
    held.current = null;
    if (submit) submit.form.requestSubmit(submit.submitter && submit.form.contains(submit.submitter) ? submit.submitter : null);
  }, []);
  const onView = useCallback(
    (view: FormView, current: FormControls) => {
      controls.current = current;
      state.current = "ready";
      setLive((current) => (sameView(current, view) ? current : view));
      // Not from this layout effect, where the navigation it starts would be a synchronous update of the page.
      if (held.current) window.setTimeout(release, 0);
    },
    [release],
  );
  const view = live ?? replyView(id, constraint, lastResult, defaultValue);
  // conform and the schema load side by side; the bridge renders once both are here.
  const load = () => {
    if (state.current !== "idle") return;
    state.current = "loading";
    Promise.all([import("./conform-bridge"), schema()]).then(
      ([, make]) => setMakeSchema(() => make),
      () => {
        state.current = "failed";
        release();
      },
    );
  };
  const formProps = {
    id,
    noValidate: true,
    "aria-invalid": view.errors ? true : undefined,
    "aria-describedby": view.errors ? view.errorId : undefined,
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      if (controls.current) return controls.current.onSubmit(event);
      // Never focused (nothing to check yet) or the code failed to load: the action checks it.
      if (state.current !== "loading") return;
      // The checks are on their way (they load on the first focus): the submit waits for them, a few seconds at most.
      event.preventDefault();
      held.current = { form: event.currentTarget, submitter: (event.nativeEvent as SubmitEvent).submitter };
      window.clearTimeout(holdTimer.current);
      holdTimer.current = window.setTimeout(() => {
        if (state.current !== "loading") return;
        state.current = "failed";
        release();
      }, 3000);
    },
    onFocus: load,
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      const name = event.target.getAttribute("name");
      if (!live && name && !blurred.current.includes(name)) blurred.current.push(name);
    },
  };
  const validation = makeSchema ? (
    <Suspense>
      <SchemaBridge makeSchema={makeSchema} t={t} id={id} lastResult={lastResult} defaultValue={defaultValue} blurred={blurred} onView={onView} />
    </Suspense>
  ) : null;
  return {
    form: view,
    fields: withFallbackFields(view) as Record<keyof z.input<Schema> & string, FieldView>,
    formProps,
    validation,
    /** Sets a field's value through conform; false before conform has loaded (then let the action do it). */
    update: (options: { name: string; value: string }) => (controls.current ? (controls.current.update(options), true) : false),
  };
}
