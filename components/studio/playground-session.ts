// What the studio's playground keeps across a reload (sessionStorage: per project and per browser
// tab): whether it is open and how wide, the agent picked, the run it follows (with its version) and
// the thread shown, and a first message typed but not sent. A reload mid-run comes back to the same run (its live
// state is read again from the stream); a new tab starts with a closed playground.
import { z } from "zod";
import { PLAYGROUND_WIDTH, type PlaygroundState } from "./PlaygroundContext";

const PlaygroundSessionSchema = z.object({
  open: z.boolean(),
  width: z.number().finite(),
  agent: z.string().nullable(),
  run: z
    .object({ rootId: z.string().min(1), agentId: z.string(), version: z.number().int().optional() })
    .nullable(),
  selectedId: z.string().nullable(),
  setupMessage: z.string(),
});

export type PlaygroundSession = z.infer<typeof PlaygroundSessionSchema>;

const sessionKey = (projectId: string) => `tandem:playground:${projectId}`;

export function playgroundSessionOf(state: PlaygroundState): PlaygroundSession {
  const { open, width, agent, run, selectedId, setupMessage } = state;
  return { open, width, agent, run, selectedId, setupMessage };
}

/** The project's kept playground, or null when there is none (or it cannot be read: then dropped). */
export function readPlaygroundSession(projectId: string): PlaygroundSession | null {
  try {
    const text = window.sessionStorage.getItem(sessionKey(projectId));
    if (text === null) return null;
    const parsed = PlaygroundSessionSchema.safeParse(JSON.parse(text));
    // (PlaygroundContext imports this module: its width limits are read here, not at load.)
    if (parsed.success)
      return {
        ...parsed.data,
        width: Math.min(PLAYGROUND_WIDTH.max, Math.max(PLAYGROUND_WIDTH.min, parsed.data.width)),
      };
  } catch {
    // Storage refused or the text is not JSON: as if nothing was kept.
  }
  forgetPlaygroundSession(projectId);
  return null;
}

export function writePlaygroundSession(projectId: string, session: PlaygroundSession): void {
  try {
    window.sessionStorage.setItem(sessionKey(projectId), JSON.stringify(session));
  } catch {
    // Storage full or refused: the playground still works, it is just not kept across a reload.
  }
}

export function forgetPlaygroundSession(projectId: string): void {
  try {
    window.sessionStorage.removeItem(sessionKey(projectId));
  } catch {
    // Nothing to forget where storage is refused.
  }
}
