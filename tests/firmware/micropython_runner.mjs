// Runs a Python script under MicroPython (WebAssembly) with files placed in its file system.
// Usage: node micropython_runner.mjs SPEC.json
// SPEC: {"files": {"/firmware/protocol.py": "...", ...}, "script": "..."}
// An uncaught Python exception makes this process exit with status 1.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";

const require = createRequire(import.meta.url);
const entry = require.resolve("@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(entry);

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const mp = await loadMicroPython({ stdout: (line) => process.stdout.write(line + "\n") });
const made = new Set(["/"]);
for (const [path, text] of Object.entries(spec.files)) {
  const parts = dirname(path).split("/").filter(Boolean);
  let at = "";
  for (const part of parts) {
    at += "/" + part;
    if (!made.has(at)) {
      try { mp.FS.mkdir(at); } catch (error) { /* already there */ }
      made.add(at);
    }
  }
  mp.FS.writeFile(path, text);
}
try {
  mp.runPython(spec.script);
} catch (error) {
  process.stderr.write(String(error) + "\n");
  process.exit(1);
}
