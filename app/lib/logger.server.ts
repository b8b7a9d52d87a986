/**
 * The app's logger: one JSON object per line on stdout/stderr.
 *
 * @example logger.error({ err, requestId }, "action failed")
 */
type Fields = Record<string, unknown>;

function serialise(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}

function write(level: "info" | "warn" | "error", fields: Fields, msg: string) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...serialise(fields) });
  if (level === "info") console.log(line);
  else console.error(line);
}

/** Structured logging: `fields` first (an `err` field holds an Error), then the message. */
export const logger = {
  info: (fields: Fields, msg: string) => write("info", fields, msg),
  warn: (fields: Fields, msg: string) => write("warn", fields, msg),
  error: (fields: Fields, msg: string) => write("error", fields, msg),
};
