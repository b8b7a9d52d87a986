import type { Route } from "./+types/verify";
import type { RouteHandle } from "#app/root";
import { servicesContext } from "#app/context";
import { requestInfoContext } from "#app/lib/request-info";
import { verifyCertificate } from "#app/features/agreements/acceptance.server";
import { retryAfterHeaders } from "#app/lib/form-action.server";

/** Plain content: no JavaScript bundle. */
export const handle: RouteHandle = { hydrate: false };

/** A 429 keeps its Retry-After (docs/product.md#throttling). */
export const headers = retryAfterHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Verify a certificate of acceptance" }, { name: "robots", content: "noindex" }];

/**
 * `GET /verify/:certificateId` (public, docs/product.md#certificates): the agency, the proposal's
 * name, the date, the version and hash, and whether the acceptance stands or was voided — nothing
 * else. Unknown id: 404; rate-limited per IP.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const found = await verifyCertificate(db, params.certificateId, context.get(requestInfoContext).ip);
  return {
    agencyName: found.agencyName,
    proposalName: found.proposalName,
    acceptedAt: found.acceptedAt.toISOString(),
    version: found.version,
    sha256: found.sha256,
    state: found.state,
    voidedAt: found.voidedAt?.toISOString() ?? null,
    voidedByVersion: found.voidedByVersion,
  };
}

export default function VerifyCertificate({ loaderData: c, params }: Route.ComponentProps) {
  const standing = c.state === "standing";
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">Certificate of acceptance</h1>
      <p
        className={`mt-4 rounded-md border px-3 py-2 font-semibold ${standing ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"}`}
        data-testid="verify-state"
      >
        {standing
          ? "This acceptance stands."
          : `This acceptance was voided${c.voidedByVersion ? ` by version ${c.voidedByVersion} of the terms` : ""}${c.voidedAt ? ` on ${c.voidedAt.slice(0, 10)}` : ""}.`}
      </p>
      <dl className="mt-6 grid gap-3 sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="font-medium text-slate-600">Certificate id</dt>
        <dd className="break-all">{params.certificateId}</dd>
        <dt className="font-medium text-slate-600">Agency</dt>
        <dd className="wrap-anywhere">{c.agencyName}</dd>
        <dt className="font-medium text-slate-600">Proposal</dt>
        <dd className="wrap-anywhere">{c.proposalName}</dd>
        <dt className="font-medium text-slate-600">Version</dt>
        <dd>{c.version}</dd>
        <dt className="font-medium text-slate-600">Accepted (UTC)</dt>
        <dd>
          <time dateTime={c.acceptedAt}>{c.acceptedAt.replace("T", " ").slice(0, 19)} UTC</time>
        </dd>
        <dt className="font-medium text-slate-600">SHA-256 of the terms</dt>
        <dd className="font-mono text-sm break-all" data-testid="verify-hash">
          {c.sha256}
        </dd>
      </dl>
      <p className="mt-6 text-sm text-slate-600">
        Compare the hash with the one printed on the certificate: they match when the certificate is this one. This page shows no terms,
        e-mail or address; the parties hold the full certificate.
      </p>
    </div>
  );
}
