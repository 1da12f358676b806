// Sign in. With accounts (after /setup): email and password, answered by /api/auth/login with a
// session cookie. With only TANDEM_API_TOKEN set: the token, as a plain form post — /api/auth/login
// checks it and sets an HttpOnly session cookie, then sends you on. With both, the token form is
// folded away below the email form; with neither, nothing is needed. With accounts and an OpenID
// provider configured (TANDEM_OIDC_*), "Sign in with <provider>" comes first.
import { LoginChoices } from "@/components/access/LoginChoices";
import { AppFrame } from "@/components/ui/AppFrame";
import { Button } from "@/components/ui/Button";
import { oidcSettings } from "@/runtime/runtime";
import { safeNextPath } from "@/runtime/security/api-token";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === "string" ? params.next : undefined);
  const failed = params.error !== undefined;
  const required = Boolean(process.env.TANDEM_API_TOKEN?.trim());
  const tokenForm = (
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
      <Button tone={required ? "primary" : "secondary"} type="submit">
        Sign in
      </Button>
    </form>
  );
  return (
    <AppFrame crumbs={[{ label: "Sign in" }]}>
      <div className="mx-auto mt-16 max-w-sm rounded-lg border border-border bg-surface p-6">
        <h1 className="mb-2 text-lg font-semibold">Sign in to Tandem</h1>
        <LoginChoices
          next={next}
          tokenRequired={required}
          tokenForm={tokenForm}
          oidcName={oidcSettings()?.name}
        />
      </div>
    </AppFrame>
  );
}
