// Sign in with the server's API token (only needed when TANDEM_API_TOKEN is set). A plain form post:
// /api/auth/login checks the token and sets an HttpOnly session cookie, then sends you on.
import { AppFrame } from "@/components/ui/AppFrame";
import { Button } from "@/components/ui/Button";
import { safeNextPath } from "@/runtime/security/api-token";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : undefined);
  const failed = params.error !== undefined;
  const required = Boolean(process.env.TANDEM_API_TOKEN?.trim());
  return (
    <AppFrame crumbs={[{ label: "Sign in" }]}>
      <div className="mx-auto mt-16 max-w-sm rounded-lg border border-border bg-surface p-6">
        <h1 className="mb-2 text-lg font-semibold">Sign in to Tandem</h1>
        {required ? (
          <p className="mb-4 text-sm text-muted">
            This server is protected by an API token. Enter the value of <code>TANDEM_API_TOKEN</code> to
            continue; your browser keeps a session cookie for a week.
          </p>
        ) : (
          <p className="mb-4 text-sm text-muted">
            This server has no API token configured, so no sign-in is needed.
          </p>
        )}
        <form method="post" action="/api/auth/login" className="flex flex-col gap-3">
          <input type="hidden" name="next" value={next} />
          <label className="flex flex-col gap-1 text-sm">
            API token
            <input
              name="token"
              type="password"
              autoComplete="current-password"
              required={required}
              className="h-8 rounded-md border border-border bg-surface px-2"
            />
          </label>
          {failed ? (
            <p role="alert" className="text-sm text-danger">
              That token was not accepted. Check the server's TANDEM_API_TOKEN and try again.
            </p>
          ) : null}
          <Button tone="primary" type="submit">
            Sign in
          </Button>
        </form>
      </div>
    </AppFrame>
  );
}
