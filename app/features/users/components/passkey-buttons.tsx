/**
 * Passkey buttons (docs/product.md#account-page): "Sign in with a passkey" ("Use a passkey") on
 * /login and "Add a passkey" on /account. WebAuthn needs JavaScript: without it (or in a browser without
 * passkeys) the buttons are not shown and the page says so; every other form works without it.
 */
import { useEffect, useState } from "react";

async function postJson(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new Error(typeof json.message === "string" ? json.message : "The passkey could not be used. Try again.");
  return json;
}

function usePasskeySupport(): boolean | null {
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => setSupported(typeof window.PublicKeyCredential === "function"), []);
  return supported;
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out.";
  return error instanceof Error && error.message ? error.message : "The passkey could not be used. Try again.";
}

const buttonClass =
  "inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-400 bg-white px-4 py-2 font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60";

/** "Sign in with a passkey" (needs JavaScript). */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const supported = usePasskeySupport();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function signIn() {
    setPending(true);
    setError(null);
    try {
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const optionsJSON = await postJson("/passkey/sign-in-options", {});
      const response = await startAuthentication({ optionsJSON: optionsJSON as never });
      const result = await postJson("/passkey/sign-in", { response });
      window.location.assign(redirectTo || String(result.redirectTo ?? "/"));
    } catch (caught) {
      setError(errorText(caught));
      setPending(false);
    }
  }
  return (
    <section aria-labelledby="passkey-sign-in" className="mt-6 border-t border-slate-200 pt-6">
      <h2 id="passkey-sign-in" className="text-lg font-semibold">
        Sign in with a passkey
      </h2>
      {/* Shown until the page runs its script (React does not render <noscript> content). */}
      {supported === null ? (
        <p className="mt-2 text-sm text-slate-700">Signing in with a passkey needs JavaScript. Your e-mail and password work without it.</p>
      ) : null}
      {supported === false ? (
        <p className="mt-2 text-sm text-slate-700">This browser cannot use passkeys. Sign in with your e-mail and password.</p>
      ) : null}
      {supported ? (
        <div className="mt-3">
          <button type="button" className={buttonClass} onClick={signIn} disabled={pending}>
            {pending ? "Waiting for your passkey…" : "Use a passkey"}
          </button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** "Add a passkey" with an optional name (needs JavaScript); reloads the page's data when done. */
export function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const supported = usePasskeySupport();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [name, setName] = useState("");
  async function add() {
    setPending(true);
    setMessage(null);
    try {
      const { startRegistration } = await import("@simplewebauthn/browser");
      const optionsJSON = await postJson("/passkey/register-options", {});
      const response = await startRegistration({ optionsJSON: optionsJSON as never });
      await postJson("/passkey/register", { response, name: name.trim() });
      setName("");
      setMessage({ ok: true, text: "The passkey has been added." });
      onAdded();
    } catch (caught) {
      setMessage({ ok: false, text: errorText(caught) });
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="mt-4">
      {supported === null ? (
        <p className="text-sm text-slate-700">Adding a passkey needs JavaScript. Everything else on this page works without it.</p>
      ) : null}
      {supported === false ? <p className="text-sm text-slate-700">This browser cannot make passkeys.</p> : null}
      {supported ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <label className="flex flex-col gap-1">
            <span className="text-sm font-medium text-slate-800">Name of the new passkey (optional)</span>
            <input
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={60}
              placeholder="e.g. My laptop"
              className="min-h-11 rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500"
            />
          </label>
          <button type="button" className={buttonClass} onClick={add} disabled={pending}>
            {pending ? "Waiting for your device…" : "Add a passkey"}
          </button>
        </div>
      ) : null}
      <div aria-live="polite">
        {message ? <p className={`mt-2 text-sm ${message.ok ? "text-green-800" : "text-red-700"}`}>{message.text}</p> : null}
      </div>
    </div>
  );
}
