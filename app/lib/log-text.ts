// Log lines are read by people and parsed by tools line by line, so a value
// from outside (a query parameter, a header, a payload, an error message
// that quotes one) must not be able to start a line of its own. These escape
// control characters the way JSON does, keeping everything else readable.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A value made safe for one log line: control characters escaped. */
export function logText(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return text.replace(CONTROL, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * An error for the log: its name and message on one escaped line, then the
 * stack frames (which are the app's own text). Anything else is escaped whole.
 */
export function errorForLog(error: unknown): string {
  if (!(error instanceof Error)) return logText(error);
  const frames = (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  const head = `${error.name}: ${logText(error.message)}`;
  const cause = error.cause === undefined ? "" : `\n  [cause] ${errorForLog(error.cause).split("\n")[0]}`;
  return frames ? `${head}\n${frames}${cause}` : `${head}${cause}`;
}

// JSON.stringify escapes C0 controls and quotes but leaves DEL, the C1
// controls and the two Unicode line separators as they are.
const JSON_UNESCAPED = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * A structured log line: the record as one line of JSON, with every control
 * and line-separator character escaped as logText escapes it, so a value
 * from outside can neither break the line nor the JSON.
 */
export function jsonLogLine(record: Record<string, unknown>): string {
  return JSON.stringify(record).replace(JSON_UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
