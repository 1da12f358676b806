// runCode's sandbox under attack: results and bridging, then infinite loops, memory bombs,
// prototype pollution of bridged objects, reaching for ambient capabilities, timers after return,
// odd thrown values and results that are not plain data, leaks between and across calls.
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_LOG_LINES, runSandboxedCode as runCode } from "./run-code";

describe("runCode results and bridging", () => {
  it("returns the default export as plain data", async () => {
    await expect(runCode("export default 6 * 7")).resolves.toEqual({
      status: "success",
      result: 42,
      logs: [],
    });
    await expect(runCode("export const a = 1;")).resolves.toEqual({
      status: "success",
      result: undefined,
      logs: [],
    });
    const nested = await runCode(
      "export default { list: [1, 'two', null, undefined, { deep: true }], when: new Date(0), skip: undefined }",
    );
    expect(nested.result).toEqual({
      list: [1, "two", null, null, { deep: true }],
      when: "1970-01-01T00:00:00.000Z",
    });
  });

  it("strips TypeScript types and runs the module", async () => {
    const result = await runCode(`
      interface Order { id: string; total: number }
      enum Kind { Small = 1, Large = 2 }
      const orders: Order[] = [{ id: "a", total: 40 }, { id: "b", total: 2 }];
      const sum = (items: readonly Order[]): number => items.reduce((acc, o) => acc + o.total, 0);
      export default { sum: sum(orders) as number, kind: Kind.Large };
    `);
    expect(result).toEqual({ status: "success", result: { sum: 42, kind: 2 }, logs: [] });
    const broken = await runCode("const x: number = ;");
    expect(broken.status).toBe("error");
    expect(broken.error).toMatch(/^SyntaxError: .*main\.ts:1:/);
  });

  it("names the line of the user's TypeScript source in syntax errors and in stack frames", async () => {
    const syntax = await runCode("type Id = string;\nconst a: Id = 'x';\nconst x: number = ;\n");
    expect(syntax).toMatchObject({ status: "error", error: expect.stringMatching(/main\.ts:3:19\)$/) });
    // esbuild drops the interface and blank lines: the throw is on line 2 of its output, line 6 here.
    const thrown = await runCode(
      "interface A { x: number }\n\n\n\nconst a: A = { x: 1 };\nthrow new Error('boom ' + a.x);\n",
    );
    expect(thrown).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^Error: boom 1\n {4}at .*\(main\.ts:6:\d+\)/),
    });
    const logged = await runCode(
      "enum E { A }\n\nfunction f(): void {\n  console.error(new Error('here'));\n}\nf();\nexport default E.A;",
    );
    expect(logged.logs[0]).toMatch(/^\[error\] Error: here\n {4}at f \(main\.ts:4:\d+\)/);
  });

  it("bridges imports and globals: functions get copies of plain data, async ones are awaited", async () => {
    const seen: unknown[] = [];
    const result = await runCode(
      `import { add, default as math } from "math";
       import { lookup } from "shop";
       const order = await lookup("A-1");
       record({ sum: add(40, 2), order, names: Object.keys(math).sort(), config });
       export default { sum: add(1, 2), status: order.status, limit: config.limit };`,
      {
        imports: {
          math: { add: (a: number, b: number) => a + b },
          shop: { lookup: async (id: string) => ({ id, status: "shipped" }) },
        },
        globals: {
          config: { limit: 3, tags: ["a"] },
          record: (value: unknown) => {
            seen.push(value);
          },
        },
      },
    );
    expect(result).toEqual({ status: "success", result: { sum: 3, status: "shipped", limit: 3 }, logs: [] });
    expect(seen).toEqual([
      { sum: 42, order: { id: "A-1", status: "shipped" }, names: ["add"], config: { limit: 3, tags: ["a"] } },
    ]);
  });

  it("turns a host function's throw or rejection into a sandbox error with the message only", async () => {
    const result = await runCode(
      `import { fail, reject } from "api";
       const caught = [];
       try { fail(); } catch (error) { caught.push(error.message, String(error.stack).includes("/work")); }
       try { await reject(); } catch (error) { caught.push(error.message); }
       export default caught;`,
      {
        imports: {
          api: {
            fail: () => {
              throw new Error("warehouse offline");
            },
            reject: async () => {
              throw new Error("later");
            },
          },
        },
      },
    );
    expect(result.result).toEqual(["warehouse offline", false, "later"]);
  });

  it("captures console output with levels, and caps it", async () => {
    const result = await runCode(
      `console.log("hello", 1, { a: [1] }, null);
       console.info("info"); console.debug("debug");
       console.warn("careful"); console.error(new TypeError("bad"));
       export default null;`,
    );
    expect(result.logs.slice(0, 4)).toEqual(['hello 1 {"a":[1]} null', "info", "debug", "[warn] careful"]);
    expect(result.logs[4]).toMatch(/^\[error\] TypeError: bad/);
    const flood = await runCode(
      `for (let i = 0; i < ${MAX_LOG_LINES + 50}; i++) console.log(i); export default 1`,
    );
    expect(flood.logs).toHaveLength(MAX_LOG_LINES + 1);
    expect(flood.logs.at(-1)).toMatch(/^\[50 more log line\(s\) dropped/);
  });

  it("awaits a default export that is a promise, and says so when nothing can ever settle it", async () => {
    await expect(runCode("export default Promise.resolve(7)")).resolves.toMatchObject({ result: 7 });
    const never = await runCode("export default await new Promise(() => {})");
    expect(never.status).toBe("error");
    expect(never.error).toMatch(/can never settle/);
  });

  it("refuses bad options with a TypeError", async () => {
    await expect(runCode("export default 1", { timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be between/);
    await expect(runCode("export default 1", { memoryMb: 1e9 })).rejects.toThrow(/memoryMb must be between/);
    await expect(runCode(42 as unknown as string)).rejects.toThrow(/source must be a string/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(runCode("export default 1", { globals: { cyclic } })).resolves.toMatchObject({
      status: "error",
      error: expect.stringMatching(/globals\.cyclic\.self refers back/),
    });
  });
});

describe("runCode limits", () => {
  const elapsed = async (source: string, timeoutMs: number) => {
    const started = Date.now();
    const result = await runCode(source, { timeoutMs });
    return { result, ms: Date.now() - started };
  };

  it.each([
    ["a synchronous loop", "while (true) {}"],
    [
      "a loop in an async function",
      "async function spin() { while (true) {} } await spin(); export default 1",
    ],
    [
      "an endless promise chain",
      "const next = () => Promise.resolve().then(next); next(); export default await new Promise(() => {})",
    ],
    ["a loop awaiting each turn", "for (;;) await null; export default 1"],
  ])("stops %s at the time limit", async (_label, source) => {
    const { result, ms } = await elapsed(source, 300);
    expect(result).toMatchObject({ status: "timeout", error: "Timed out after 300 ms" });
    expect(ms).toBeLessThan(2_000);
  });

  it("times out while waiting for a host function that never answers", async () => {
    const result = await runCode('import { hang } from "api"; export default await hang();', {
      timeoutMs: 200,
      imports: { api: { hang: () => new Promise(() => {}) } },
    });
    expect(result.status).toBe("timeout");
  });

  it.each([
    ["many arrays", "const keep = []; while (true) keep.push(new Array(100000).fill(1)); export default 1"],
    ["many objects", "const keep = []; while (true) keep.push({ n: keep.length }); export default 1"],
    [
      "many strings",
      "const keep = []; for (let i = 0; ; i++) keep.push('x'.repeat(1e6) + i); export default 1",
    ],
    ["one growing array", "const keep = []; while (true) keep.push(1); export default 1"],
  ])(
    "ends a memory bomb of %s with a clear error",
    async (_label, source) => {
      const result = await runCode(source, { memoryMb: 16, timeoutMs: 20_000 });
      expect(result.status).toBe("error");
      expect(result.error).toMatch(/^Memory limit exceeded: the code needed more than 16 MB/);
    },
    30_000,
  );

  it("holds the memory cap for memory that QuickJS's own heap limit does not count", async () => {
    // Arrays filled element by element grow through realloc, which QuickJS's limit misses: the
    // WebAssembly memory's maximum (memoryMb + 16 MB of engine room) is what stops them.
    let arrays = 0;
    const result = await runCode(
      "const keep = []; while (true) { keep.push(new Array(100000).fill(1)); progress(keep.length); } export default 1",
      { memoryMb: 16, timeoutMs: 20_000, globals: { progress: (count: number) => (arrays = count) } },
    );
    expect(result.error).toMatch(/^Memory limit exceeded/);
    // 100,000 elements are 800 KB: (16 + 16) MB hold about 40 of them.
    expect(arrays).toBeGreaterThan(5);
    expect(arrays).toBeLessThan(45);
  }, 30_000);

  it("reports runaway recursion as a stack overflow with a short stack", async () => {
    const result = await runCode("function down() { return down() + 1 } export default down()");
    expect(result.status).toBe("error");
    expect(result.error).toMatch(/^InternalError: stack overflow/);
    expect(result.error!.split("\n").length).toBeLessThanOrEqual(12);
  });

  it("is interrupted when the run it belongs to is stopped while it waits", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await runCode(
      'import { hang } from "api"; export default await hang();',
      { timeoutMs: 10_000, imports: { api: { hang: () => new Promise(() => {}) } } },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({ status: "error", error: expect.stringMatching(/^Stopped/) });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("runCode hard stop (the sandbox runs in a worker thread the host terminates)", () => {
  // A call waits for a worker when none is idle (the first of a process, or one right after a
  // terminated worker while its replacement starts); these measure the stop, so each starts warm.
  beforeEach(async () => {
    await runCode("export default 1", { timeoutMs: 30_000 });
  }, 30_000);

  /**
   * Runs `source` while a host timer ticks every 10 ms; the longest gap shows whether the event loop
   * stayed free. In a sandbox on the host's thread it is the whole run (over 1,000 ms here); with the
   * worker it was 20–140 ms on this 2-core machine under a load of 10, so the bound is 250 ms.
   */
  const watched = async (
    source: string,
    options: Parameters<typeof runCode>[1],
    host?: Parameters<typeof runCode>[2],
  ) => {
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    try {
      const result = await runCode(source, options, host);
      // The gap still open when the call answers counts too (a blocked loop never ticked at all).
      const now = performance.now();
      return { result, ms: now - started, maxGap: Math.max(maxGap, now - last) };
    } finally {
      clearInterval(ticker);
    }
  };

  it.each([
    ["a plain loop", "while (true) {}"],
    ["big arrays filled inside a builtin", "while (true) new Array(1e6).fill(1); export default 1"],
    [
      "a big JSON.stringify",
      "const big = Array.from({ length: 200000 }, (_, i) => ({ i, s: 'abc' + i })); while (true) JSON.stringify(big); export default 1",
    ],
    ["catastrophic regex backtracking", 'export default /(a+)+$/.test("a".repeat(40) + "b")'],
    ["huge strings made by repeat", 'while (true) "x".repeat(1 << 27).length; export default 1'],
  ])(
    "stops %s at the limit while the host's event loop keeps ticking",
    async (_label, source) => {
      const { result, ms, maxGap } = await watched(`console.log("started");\n${source}`, {
        timeoutMs: 1_000,
        memoryMb: 512,
      });
      expect(result).toEqual({ status: "timeout", error: "Timed out after 1000 ms", logs: ["started"] });
      expect(ms).toBeLessThan(1_000 + 250);
      expect(maxGap).toBeLessThan(250);
      // The terminated worker is replaced: the next call runs normally.
      await expect(runCode("export default 6 * 7", { timeoutMs: 30_000 })).resolves.toMatchObject({
        status: "success",
        result: 42,
      });
    },
    10_000,
  );

  it("stops a runaway builtin at once when the run is stopped", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { result, ms, maxGap } = await watched(
      "console.log('spinning'); while (true) new Array(1e6).fill(1); export default 1",
      { timeoutMs: 30_000 },
      { signal: controller.signal },
    );
    expect(result).toEqual({
      status: "error",
      error: "Stopped: the run was stopped while the code ran",
      logs: ["spinning"],
    });
    expect(ms).toBeLessThan(200 + 250);
    expect(maxGap).toBeLessThan(250);
  }, 10_000);
});

describe("runCode isolation", () => {
  it("has no process, require, fetch, timers or other host globals", async () => {
    const result = await runCode(`
      export default ["process", "require", "fetch", "setTimeout", "setInterval", "setImmediate",
        "queueMicrotask", "Buffer", "XMLHttpRequest", "WebAssembly", "std", "os", "module", "exports"]
        .filter((name) => typeof globalThis[name] !== "undefined");
    `);
    expect(result).toEqual({ status: "success", result: [], logs: [] });
  });

  it.each([
    ["the Function constructor", "export default globalThis.constructor.constructor('return process')()"],
    [
      "an async function's constructor",
      "export default await (async () => {}).constructor('return process')()",
    ],
    ["eval", "export default eval('process.env')"],
    ["a static import of fs", "import fs from 'fs'; export default fs.readFileSync('/etc/passwd', 'utf8')"],
    ["a node: import", "import { execSync } from 'node:child_process'; export default execSync('id')"],
    ["a relative import", "import x from './secrets.js'; export default x"],
    [
      "a dynamic import",
      "const fs = await import('fs'); export default fs.readFileSync('/etc/passwd', 'utf8')",
    ],
    ["setTimeout", "setTimeout(() => {}, 0); export default 1"],
    ["fetch", "export default await fetch('http://127.0.0.1/')"],
  ])("refuses %s", async (_label, source) => {
    const result = await runCode(source);
    expect(result.status).toBe("error");
    expect(result.error).toMatch(/is not defined|Cannot import "(fs|node:child_process|\.\/secrets\.js)"/);
  });

  it("keeps prototype pollution inside the sandbox: host objects and functions are untouched", async () => {
    function add(a: number, b: number) {
      return a + b;
    }
    const hostPrototype = add.prototype;
    const config = { limit: 3 };
    const received: unknown[] = [];
    const result = await runCode(
      `import { add } from "math";
       Object.prototype.polluted = "yes";
       Array.prototype.map = () => "hijacked";
       JSON.stringify = () => '"hijacked"';
       add.injected = true;
       add.constructor.prototype.fromFunction = true;
       Object.getPrototypeOf(add).viaProto = true;
       config.__proto__.viaConfig = true;
       config.constructor.prototype.viaConstructor = true;
       config.limit = 99;
       record({ plain: true });
       export default { sum: add(1, 2), config, evil: JSON.parse('{"__proto__": {"polluted": "yes"}, "kept": 1}') };`,
      {
        imports: { math: { add } },
        globals: { config, record: (value: unknown) => received.push(value) },
      },
    );
    expect(result).toEqual({
      status: "success",
      result: { sum: 3, config: { limit: 99 }, evil: { kept: 1 } },
      logs: [],
    });
    // Nothing reached the host: its prototypes, the bridged function and the bridged object.
    const probe: Record<string, unknown> = {};
    for (const key of ["polluted", "viaConfig", "viaConstructor", "injected"])
      expect(probe[key]).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect([1].map((x) => x + 1)).toEqual([2]);
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
    expect(add.prototype).toBe(hostPrototype);
    expect(Object.keys(add.prototype)).toEqual([]);
    expect((add as unknown as Record<string, unknown>).injected).toBeUndefined();
    expect((add as unknown as Record<string, unknown>).fromFunction).toBeUndefined();
    expect((Function.prototype as unknown as Record<string, unknown>).viaProto).toBeUndefined();
    expect(config).toEqual({ limit: 3 });
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(Object.getPrototypeOf((result.result as { evil: object }).evil)).toBe(Object.prototype);
  });

  it("starts every call in a fresh context: nothing leaks from one call to the next", async () => {
    await runCode(
      "globalThis.leaked = 1; Object.prototype.polluted = 1; Math.max = () => -1; export default 1",
    );
    const second = await runCode(
      "export default [typeof leaked, ({}).polluted === undefined, Math.max(1, 2)]",
    );
    expect(second.result).toEqual(["undefined", true, 2]);
  });

  it("runs nothing after it returns: a late host answer finds the sandbox gone", async () => {
    const late: string[] = [];
    let answer: (value: string) => void = () => {};
    const result = await runCode(
      `import { slow, record } from "api";
       slow().then((value) => record("late: " + value));
       export default "returned";`,
      {
        imports: {
          api: {
            slow: () => new Promise<string>((resolve) => (answer = resolve)),
            record: (value: string) => late.push(value),
          },
        },
      },
    );
    expect(result.result).toBe("returned");
    answer("now");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(late).toEqual([]);
  });

  it.each([
    ["throw 42", "Uncaught 42"],
    ["throw 'text'", "Uncaught text"],
    ["throw null", "Uncaught null"],
    ["throw undefined", "Uncaught undefined"],
    ["throw { code: 7 }", 'Uncaught {"code":7}'],
    ["throw Object.assign(new RangeError('too far'), { code: 1 })", /^RangeError: too far\n {4}at /],
    ["await Promise.reject(new Error('later')); export default 1", /^Error: later/],
  ])("reports `%s` as an error", async (source, expected) => {
    const result = await runCode(source);
    expect(result.status).toBe("error");
    expect(result.error).toMatch(expected);
  });

  it.each([
    ["export default () => 1", "the default export is a function"],
    ["export default { nested: { fn() {} } }", "the default export.nested.fn is a function"],
    ["const a = { b: {} }; a.b.back = a; export default a", "the default export.b.back is a reference back"],
    ["export default new Map([[1, 2]])", "the default export is a Map object"],
    ["export default [1n]", "the default export[0] is a bigint"],
    ["export default { n: NaN }", "the default export.n is NaN"],
    ["export default Symbol('s')", "the default export is a symbol"],
  ])("refuses a result that is not plain data: `%s`", async (source, message) => {
    const result = await runCode(source);
    expect(result.status).toBe("error");
    expect(result.error).toContain(`TypeError: ${message}`);
    expect(result.error).not.toContain("tandem-prelude");
  });

  it("passes only plain data to host functions", async () => {
    const result = await runCode('import { take } from "api"; export default take(() => 1);', {
      imports: { api: { take: (value: unknown) => typeof value } },
    });
    expect(result).toMatchObject({
      status: "error",
      error: expect.stringContaining('argument 1 of imports["api"].take is a function'),
    });
  });

  it("frees every sandbox: 200 calls do not make the process grow", async () => {
    const bomb =
      "const keep = []; for (let i = 0; i < 2000; i++) keep.push({ i, s: 'x' + i }); export default keep.length";
    for (let i = 0; i < 20; i++) await runCode(bomb);
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 200; i++) expect((await runCode(bomb)).result).toBe(2000);
    const grown = process.memoryUsage().rss - before;
    // Each call has its own 16 MB+ WebAssembly memory: a leak of one per call would be over 3 GB.
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);
});
