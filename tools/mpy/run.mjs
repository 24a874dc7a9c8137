// Runs the project's Python inside MicroPython (the WebAssembly port) under Node.js.
//
//   node tools/mpy/run.mjs [--compiled] [--heap=BYTES] MODULE [ARG ...]
//
// Copies firmware/, hal/, boards/, sim/, the measurements of bench/ that run in
// here (BENCH_MODULES), the tests' drivers of tests/mpy/ and the Adafruit
// libraries the firmware uses into the
// interpreter's file system, then calls MODULE.main(ARGS) and
// exits with the status it returns. A main that returns a function instead
// asks for a full garbage collection first: this port collects only between
// two calls from JavaScript (inside one, gc.collect() is deferred), so the
// function is called in a new call, after the collection, and so on while it
// returns functions. With --compiled, firmware/, hal/ and
// boards/ and the Adafruit libraries are loaded as .mpy files from build/mpy/
// (made by `make mpy`). --heap=BYTES sizes the interpreter's heap (default
// 1 MiB, the port's own): the heap figures are measured at the default; the
// clock scripts run with a larger one, in which the simulator's objects sit
// beside the firmware's and the collector runs less often.
// Files named on the command line are copied in at the same paths.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const APP = "/app";
// The modules of bench/ that run inside MicroPython; the rest of bench/ runs on
// CPython and starts these through this file.
const BENCH_MODULES = [
  "__init__.py",
  "boot_heap.py",
  "hall_alloc.py",
  "hall_heap.py",
  "tournament_heap.py",
  "measure.py",
];

function findSitePackages() {
  const lib = path.join(root, ".venv", "lib");
  if (!fs.existsSync(lib)) return null;
  for (const entry of fs.readdirSync(lib)) {
    const candidate = path.join(lib, entry, "site-packages");
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function copyTree(mp, source, target, extension) {
  mp.FS.mkdirTree(target);
  for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = target + "/" + entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(mp, from, to, extension);
    } else if (entry.name.endsWith(extension)) {
      mp.FS.writeFile(to, fs.readFileSync(from));
    }
  }
}

const args = process.argv.slice(2);
let compiled = false;
let heapsize = 1024 * 1024;
while (args.length && args[0].startsWith("--")) {
  const option = args.shift();
  if (option === "--compiled") compiled = true;
  else if (/^--heap=[1-9][0-9]*$/.test(option)) heapsize = parseInt(option.slice(7), 10);
  else {
    console.error(`run.mjs: unknown option ${option}`);
    process.exit(2);
  }
}
if (args.length < 1) {
  console.error("usage: run.mjs [--compiled] [--heap=BYTES] MODULE [ARG ...]");
  process.exit(2);
}
const moduleName = args.shift();
const sitePackages = findSitePackages();
if (!sitePackages) {
  console.error("no .venv: run `make setup` first");
  process.exit(2);
}

const mp = await loadMicroPython({
  heapsize,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

const mpyRoot = path.join(root, "build", "mpy");
if (compiled && !fs.existsSync(mpyRoot)) {
  console.error("no build/mpy: run `make mpy` first");
  process.exit(2);
}
for (const dir of ["firmware", "hal", "boards"]) {
  if (compiled) copyTree(mp, path.join(mpyRoot, dir), `${APP}/${dir}`, ".mpy");
  else copyTree(mp, path.join(root, dir), `${APP}/${dir}`, ".py");
}
copyTree(mp, path.join(root, "sim"), `${APP}/sim`, ".py");
mp.FS.mkdirTree(`${APP}/bench`);
for (const file of BENCH_MODULES) {
  // an older tree (the bench's first release) has its measurements in sim/ instead
  const source = path.join(root, "bench", file);
  if (fs.existsSync(source)) mp.FS.writeFile(`${APP}/bench/${file}`, fs.readFileSync(source));
}
// The tests' drivers that run in here as well as on CPython (tests/mpy/).
const testDrivers = path.join(root, "tests", "mpy");
if (fs.existsSync(testDrivers)) {
  mp.FS.mkdirTree(`${APP}/tests`);
  mp.FS.writeFile(`${APP}/tests/__init__.py`, fs.readFileSync(path.join(root, "tests", "__init__.py")));
  copyTree(mp, testDrivers, `${APP}/tests/mpy`, ".py");
}
if (compiled) {
  copyTree(mp, path.join(mpyRoot, "lib"), APP, ".mpy");
} else {
  for (const dir of ["adafruit_ht16k33", "adafruit_bus_device"]) {
    copyTree(mp, path.join(sitePackages, dir), `${APP}/${dir}`, ".py");
  }
  for (const file of ["adafruit_ticks.py"]) {
    mp.FS.writeFile(`${APP}/${file}`, fs.readFileSync(path.join(sitePackages, file)));
  }
}

const cwd = process.cwd();
mp.FS.mkdirTree(cwd);
mp.FS.chdir(cwd);
for (const arg of args) {
  if (fs.existsSync(arg) && fs.statSync(arg).isFile()) {
    const absolute = path.resolve(cwd, arg);
    mp.FS.mkdirTree(path.dirname(absolute));
    mp.FS.writeFile(absolute, fs.readFileSync(arg));
  }
}

mp.globals.set("_run_args", JSON.stringify(args));
mp.globals.set("_run_module", moduleName);
let status = 3;
try {
  mp.runPython(`
import sys, json
sys.path.insert(0, "${APP}")
_module = __import__(_run_module, None, None, ("main",))
_status = _module.main(json.loads(_run_args))
_more = callable(_status)
`);
  while (mp.globals.get("_more")) {
    mp.runPython(`
_status = _status()
_more = callable(_status)
`);
  }
  status = mp.globals.get("_status");
  if (typeof status !== "number") status = 0;
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  status = 3;
}
process.exit(status);
