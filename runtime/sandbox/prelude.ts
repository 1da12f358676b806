// The JavaScript that runCode evaluates inside each fresh QuickJS context before the user's module:
// `console` (lines go to the host through one bridged function) and the helpers the host calls to
// copy values out. It captures the intrinsics it needs first, so a module that later replaces
// JSON, Object.keys or Array.prototype cannot change how its result is read; whatever it does, the
// host only ever receives a JSON string, which it parses itself.
export const PRELUDE_SOURCE = String.raw`(function (hostLog) {
  "use strict";
  const stringify = JSON.stringify;
  const keys = Object.keys;
  const getPrototypeOf = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const objectPrototype = Object.prototype;
  const objectToString = Object.prototype.toString;
  const isArray = Array.isArray;
  const datePrototype = Date.prototype;
  const toISOString = Date.prototype.toISOString;
  const errorPrototype = Error.prototype;
  const apply = Reflect.apply;
  const isFinite = Number.isFinite;
  const StringOf = String;
  const TypeErrorOf = TypeError;
  const MAX_DEPTH = 200;

  function put(target, key, value) {
    defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }

  function notPlain(path, what) {
    return new TypeErrorOf(path + " is " + what + "; only plain data (JSON values) can leave the sandbox");
  }

  function isError(value) {
    for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
      if (proto === errorPrototype) return true;
    }
    return false;
  }

  // A fresh copy of value made of JSON values only, or a TypeError naming the first part that is not.
  function copy(value, path, ancestors) {
    switch (typeof value) {
      case "string":
      case "boolean":
      case "undefined":
        return value;
      case "number":
        if (!isFinite(value)) throw notPlain(path, StringOf(value));
        return value;
      case "function":
        throw notPlain(path, "a function");
      case "bigint":
        throw notPlain(path, "a bigint");
      case "symbol":
        throw notPlain(path, "a symbol");
    }
    if (value === null) return null;
    for (let index = 0; index < ancestors.length; index++) {
      if (ancestors[index] === value) throw notPlain(path, "a reference back to one of its parents (a cycle)");
    }
    if (ancestors.length >= MAX_DEPTH) throw notPlain(path, "nested more than " + MAX_DEPTH + " levels deep");
    const proto = getPrototypeOf(value);
    if (proto === datePrototype) return apply(toISOString, value, []);
    const inner = [];
    for (let index = 0; index < ancestors.length; index++) put(inner, index, ancestors[index]);
    put(inner, ancestors.length, value);
    if (isArray(value)) {
      const out = [];
      const length = value.length;
      for (let index = 0; index < length; index++) {
        const item = copy(value[index], path + "[" + index + "]", inner);
        put(out, index, item === undefined ? null : item);
      }
      return out;
    }
    if (proto !== objectPrototype && proto !== null) {
      throw notPlain(path, "a " + apply(objectToString, value, []).slice(8, -1) + " object");
    }
    const out = {};
    const names = keys(value);
    for (let index = 0; index < names.length; index++) {
      const name = names[index];
      const item = copy(value[name], path + "." + name, inner);
      if (item !== undefined) put(out, name, item);
    }
    return out;
  }

  function toJson(value, label) {
    const copied = copy(value, label, []);
    return copied === undefined ? undefined : stringify(copied);
  }

  function format(value) {
    if (typeof value === "string") return value;
    if (value !== null && typeof value === "object" && isError(value)) return describe(value);
    try {
      const text = toJson(value, "value");
      return text === undefined ? "undefined" : text;
    } catch {
      try {
        return StringOf(value);
      } catch {
        return "[" + typeof value + "]";
      }
    }
  }

  // The text of a thrown value: "Name: message" and the sandbox's own stack for errors.
  function describe(thrown) {
    if (thrown !== null && typeof thrown === "object" && isError(thrown)) {
      const head = StringOf(thrown.name) + ": " + StringOf(thrown.message);
      const stack = typeof thrown.stack === "string" ? thrown.stack.trimEnd() : "";
      return stack ? head + "\n" + stack : head;
    }
    return "Uncaught " + format(thrown);
  }

  function writer(level) {
    return function () {
      let line = "";
      for (let index = 0; index < arguments.length; index++) {
        line += (index ? " " : "") + format(arguments[index]);
      }
      hostLog(level, line);
    };
  }

  const console = {};
  const levels = ["log", "info", "debug", "warn", "error"];
  for (let index = 0; index < levels.length; index++) put(console, levels[index], writer(levels[index]));
  defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });

  return { toJson, describe };
})`;
