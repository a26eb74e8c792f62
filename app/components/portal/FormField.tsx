import { TextField } from "@shopify/polaris";

// A text field for the server-rendered portal forms: the browser keeps what
// is typed (no script runs there), so the value is only the initial one.
const keep = () => undefined;

export function FormField(props: {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "url" | "date";
  value?: string;
  error?: string;
  autoComplete?: string;
  multiline?: number;
  helpText?: string;
  requiredIndicator?: boolean;
}) {
  return (
    <TextField
      id={`field-${props.name}`}
      name={props.name}
      label={props.label}
      type={props.type ?? "text"}
      value={props.value ?? ""}
      onChange={keep}
      error={props.error}
      autoComplete={props.autoComplete ?? "off"}
      multiline={props.multiline}
      helpText={props.helpText}
      requiredIndicator={props.requiredIndicator}
    />
  );
}

/** A copy-to-clipboard button (see COPY_SCRIPT), with the text shown beside it. */
export function CopyField({
  label,
  value,
  copyLabel,
  copiedLabel,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  copiedLabel: string;
  testId?: string;
}) {
  return (
    <div className="portal-copy">
      <label>
        <span className="portal-copy-label">{label}</span>
        <input className="portal-copy-input" readOnly value={value} data-testid={testId} />
      </label>
      <button type="button" className="Polaris-Button portal-copy-button" data-copy={value} data-copied={copiedLabel}>
        {copyLabel}
      </button>
    </div>
  );
}

// The one script of the portal pages: copy buttons. Plain, inline and tiny,
// so it works on every way in (the proxy cannot serve the app's bundles).
// A button with data-count also tells the page it is on (a form POST to its
// own address, whichever way in) that it was used: the creatives' counts.
export const COPY_SCRIPT = `document.addEventListener("click",function(e){var b=e.target.closest&&e.target.closest("[data-copy]");if(!b)return;var t=b.getAttribute("data-copy"),c=b.getAttribute("data-count"),done=function(){b.textContent=b.getAttribute("data-copied")};if(c&&window.fetch){fetch(location.pathname,{method:"POST",credentials:"same-origin",keepalive:true,headers:{"Content-Type":"application/x-www-form-urlencoded","Accept":"application/json"},body:c}).catch(function(){})}if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t).then(done)}else{var i=document.createElement("textarea");i.value=t;document.body.appendChild(i);i.select();document.execCommand("copy");i.remove();done()}});`;
