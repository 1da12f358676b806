// GET /api/providers — which model providers this server can use, by env variable name only.
import { availableProviders } from "@/runtime/runtime";
import { handle } from "../_lib/http";

export const dynamic = "force-dynamic";

export const GET = handle(async () => Response.json({ providers: availableProviders(process.env) }));
