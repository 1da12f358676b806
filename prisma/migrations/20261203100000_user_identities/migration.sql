-- Sign-in with an OpenID Connect provider (docs/security.md "Single sign-on"): a user's account at
-- the provider, by issuer and subject, linked on the first sign-in whose verified email matches.
-- CreateTable
CREATE TABLE "user_identities" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "user_identities_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateIndex
CREATE INDEX "user_identities_user_id_idx" ON "user_identities"("user_id");

-- AddForeignKey
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
