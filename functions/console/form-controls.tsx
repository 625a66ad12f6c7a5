import type { Child } from 'hono/jsx';

/** Problems of a submitted form by field name; `_form` holds one that belongs to no field. */
export type FieldErrors = Record<string, string>;

interface FieldProps {
  name: string;
  label: string;
  errors?: FieldErrors;
  hint?: string;
}

const describedBy = (name: string, hint?: string, error?: string) =>
  [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined;

const Messages = (props: { name: string; hint?: string; error?: string }) => (
  <>
    {props.hint ? <p class="hint" id={`${props.name}-hint`}>{props.hint}</p> : null}
    {props.error ? <p class="field-error" id={`${props.name}-error`}>{props.error}</p> : null}
  </>
);

/** A labelled text input with its hint and its error beside it (the API's message for that field). */
export const TextField = (props: FieldProps & { value?: string; required?: boolean; type?: string; maxlength?: number; autocomplete?: string }) => {
  const error = props.errors?.[props.name];
  return (
    <div class="field">
      <label for={props.name}>{props.label}{props.required ? '' : ' (optional)'}</label>
      <Messages name={props.name} hint={props.hint} error={error} />
      <input
        id={props.name}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        required={props.required}
        maxlength={props.maxlength}
        autocomplete={props.autocomplete ?? 'off'}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(props.name, props.hint, error)}
      />
    </div>
  );
};

export const TextArea = (props: FieldProps & { value?: string; required?: boolean }) => {
  const error = props.errors?.[props.name];
  return (
    <div class="field">
      <label for={props.name}>{props.label}{props.required ? '' : ' (optional)'}</label>
      <Messages name={props.name} hint={props.hint} error={error} />
      <textarea id={props.name} name={props.name} required={props.required} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy(props.name, props.hint, error)}>
        {props.value ?? ''}
      </textarea>
    </div>
  );
};

export interface Choice {
  value: string;
  label: string;
}

/** A labelled select; an optional one starts with an empty choice. */
export const SelectField = (props: FieldProps & { choices: Choice[]; value?: string; required?: boolean; empty?: string; extra?: Record<string, string> }) => {
  const error = props.errors?.[props.name];
  return (
    <div class="field">
      <label for={props.name}>{props.label}{props.required ? '' : ' (optional)'}</label>
      <Messages name={props.name} hint={props.hint} error={error} />
      <select id={props.name} name={props.name} required={props.required} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy(props.name, props.hint, error)} {...props.extra}>
        {props.empty !== undefined || !props.required ? <option value="">{props.empty ?? '—'}</option> : null}
        {props.choices.map((choice) => (
          <option value={choice.value} selected={choice.value === props.value}>{choice.label}</option>
        ))}
      </select>
    </div>
  );
};

/** A problem that belongs to the whole form, announced when the page loads. */
export const FormProblem = (props: { errors?: FieldErrors }) =>
  props.errors?._form ? <p class="notice bad" role="alert">{props.errors._form}</p> : null;

export const Actions = (props: { children: Child }) => <div class="form-actions">{props.children}</div>;
