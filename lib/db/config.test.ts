import { describe, expect, it } from "vitest";
import {
  DatabaseConfigError,
  describeDatabase,
  GROUP_COMMIT_DEFAULTS,
  groupCommitSettings,
  postgresConnection,
  redactUrl,
  resolveDatabaseConfig,
} from "./config";

describe("resolveDatabaseConfig", () => {
  it("defaults to an embedded PGlite folder under .data when DATABASE_URL is unset", () => {
    expect(resolveDatabaseConfig({}, "/srv/app")).toEqual({
      kind: "pglite",
      dataDir: "/srv/app/.data/pglite",
    });
    expect(resolveDatabaseConfig({ DATABASE_URL: "  " }, "/srv/app")).toEqual({
      kind: "pglite",
      dataDir: "/srv/app/.data/pglite",
    });
  });

  it("lets PGLITE_DIR move the embedded folder", () => {
    expect(resolveDatabaseConfig({ PGLITE_DIR: "tmp/db" }, "/srv/app")).toEqual({
      kind: "pglite",
      dataDir: "/srv/app/tmp/db",
    });
  });

  it("accepts pglite:memory and pglite:<folder>", () => {
    expect(resolveDatabaseConfig({ DATABASE_URL: "pglite:memory" })).toEqual({
      kind: "pglite",
      dataDir: null,
    });
    expect(resolveDatabaseConfig({ DATABASE_URL: "pglite:/var/db" })).toEqual({
      kind: "pglite",
      dataDir: "/var/db",
    });
  });

  it("uses a Postgres server for postgres:// and postgresql:// URLs", () => {
    for (const url of ["postgres://u@h:5432/d", "postgresql://u@h/d"]) {
      expect(resolveDatabaseConfig({ DATABASE_URL: url })).toEqual({ kind: "postgres", url });
    }
  });

  it("rejects other URLs with a message that does not leak the password", () => {
    expect(() => resolveDatabaseConfig({ DATABASE_URL: "mysql://root:hunter2@h/d" })).toThrow(
      DatabaseConfigError,
    );
    expect(() => resolveDatabaseConfig({ DATABASE_URL: "mysql://root:hunter2@h/d" })).toThrow(
      /root:\*\*\*@h/,
    );
  });
});

describe("redactUrl and describeDatabase", () => {
  it("hide passwords", () => {
    expect(redactUrl("postgres://user:secret@host:5432/db")).toBe("postgres://user:***@host:5432/db");
    expect(redactUrl("postgres://user@host/db")).toBe("postgres://user@host/db");
    expect(describeDatabase({ kind: "postgres", url: "postgres://a:b@h/d" })).toBe(
      "Postgres at postgres://a:***@h/d",
    );
    expect(describeDatabase({ kind: "pglite", dataDir: null })).toBe("embedded PGlite in memory");
  });
});

describe("postgresConnection", () => {
  it("turns libpq's socket folder (host=/folder) into postgres.js's socket path", () => {
    expect(postgresConnection("postgresql://postgres@localhost:55432/tandem?host=/tmp/pg/")).toEqual({
      url: "postgresql://postgres@localhost:55432/tandem",
      path: "/tmp/pg/.s.PGSQL.55432",
    });
    expect(
      postgresConnection(
        "postgresql://postgres@localhost/tandem?host=%2Fvar%2Frun%2Fpostgresql&sslmode=disable",
      ),
    ).toEqual({
      url: "postgresql://postgres@localhost/tandem?sslmode=disable",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
  });

  it("leaves TCP URLs alone", () => {
    for (const url of ["postgresql://postgres@127.0.0.1:55432/tandem", "postgres://u:p@db:5432/x?host=db2"])
      expect(postgresConnection(url)).toEqual({ url });
  });
});

describe("groupCommitSettings", () => {
  it("is on by default and reads TANDEM_GROUP_COMMIT and its limits", () => {
    expect(groupCommitSettings({})).toEqual(GROUP_COMMIT_DEFAULTS);
    expect(GROUP_COMMIT_DEFAULTS.enabled).toBe(true);
    expect(groupCommitSettings({ TANDEM_GROUP_COMMIT: "1" }).enabled).toBe(true);
    expect(groupCommitSettings({ TANDEM_GROUP_COMMIT: " On " }).enabled).toBe(true);
    expect(groupCommitSettings({ TANDEM_GROUP_COMMIT: "off" }).enabled).toBe(false);
    expect(
      groupCommitSettings({ TANDEM_GROUP_COMMIT_IN_FLIGHT: "2", TANDEM_GROUP_COMMIT_MAX: "16" }),
    ).toMatchObject({ maxInFlight: 2, maxParts: 16 });
  });

  it("refuses values it cannot read", () => {
    expect(() => groupCommitSettings({ TANDEM_GROUP_COMMIT: "maybe" })).toThrow(DatabaseConfigError);
    expect(() => groupCommitSettings({ TANDEM_GROUP_COMMIT_IN_FLIGHT: "0" })).toThrow(/positive integer/);
    expect(() => groupCommitSettings({ TANDEM_GROUP_COMMIT_MAX: "1.5" })).toThrow(/positive integer/);
  });
});
