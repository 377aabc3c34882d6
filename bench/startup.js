#!/usr/bin/env node
// Start-up time and resident memory of the Stator server. Run through bench/startup.sh.
//
//   node bench/startup.js JAR [--runs 5] [--items 100000] [--port 18050] [--out DIR]
//
// For each storage (in memory, RocksDB in a fresh directory under --out):
// - start-up: launches `java -jar JAR serve` with the launcher's flags RUNS times and measures the
//   time from the launch to the first 200 answer to GET / (polled every 2 ms), then stops it;
// - footprint: the resident set (VmRSS) after 5 s idle, then after loading ITEMS items of ~1 KB
//   (preload.js: 10 per partition) and 5 s idle again.
// Prints a Markdown table.
'use strict'
const { spawn, execFileSync } = require('child_process')
const fs = require('fs')
const http = require('http')
const path = require('path')

const args = process.argv.slice(2)
const jar = args[0]
const option = (name, def) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : def
}
const RUNS = Number(option('--runs', 5))
const ITEMS = Number(option('--items', 100000))
const PORT = Number(option('--port', 18050))
const OUT = option('--out', fs.mkdtempSync('/tmp/stator-startup-'))
// The launcher's flags (./stator); JVM_FLAGS replaces them, e.g. to compare GC settings.
const JVM = process.env.JVM_FLAGS !== undefined
  ? process.env.JVM_FLAGS.split(/\s+/).filter(Boolean)
  : ['-XX:MaxRAMPercentage=25', '-XX:+ExitOnOutOfMemoryError', '-XX:G1PeriodicGCInterval=5000',
      '-XX:GCTimeRatio=4', '-XX:MinHeapFreeRatio=10', '-XX:MaxHeapFreeRatio=30']
// The launcher's class-data archive (it writes one per build and JDK beside the jar, named
// after the JDK's version), as ./stator passes it.
const jarDir = require('path').resolve(require('path').dirname(process.argv[2] || '.'))
const archives = fs.existsSync(jarDir)
  ? fs.readdirSync(jarDir).filter(f => /^stator-.*\.jsa$/.test(f))
    .map(f => require('path').join(jarDir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)
  : []
if (process.env.JVM_FLAGS === undefined && archives.length > 0) {
  JVM.push('-XX:SharedArchiveFile=' + archives[0], '-Xlog:cds=off', '-Xlog:cds+dynamic=off')
}
// RocksDB's native library, which the launcher copies out of the jar once per build into
// native/<the jar's time in seconds>-<its size>/: only this jar's copy, never another build's.
function nativeDirOf (jar) {
  try {
    const st = fs.statSync(jar)
    const dir = require('path').join(jarDir, 'native', Math.floor(st.mtimeMs / 1000) + '-' + st.size)
    return fs.readdirSync(dir).some(f => /^librocksdbjni/.test(f))
      ? dir
      : null
  } catch (e) {
    return null
  }
}
const nativeDir = process.argv[2] ? nativeDirOf(process.argv[2]) : null
if (process.env.JVM_FLAGS === undefined && nativeDir !== null) {
  JVM.push('-Djava.library.path=' + nativeDir)
}
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

function healthy () {
  return new Promise(resolve => {
    const req = http.get({ host: '127.0.0.1', port: PORT, path: '/', timeout: 1000 }, res => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on('error', () => resolve(false))
    req.on('timeout', () => { req.destroy(); resolve(false) })
  })
}

function rssMb (pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024
}

async function launch (storageArgs) {
  const started = process.hrtime.bigint()
  const child = spawn('java', [...JVM, '-jar', jar, 'serve', '--port', String(PORT), ...storageArgs],
    { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', d => { stderr += d })
  let exited = false
  child.on('exit', () => { exited = true })
  for (let i = 0; i < 30000; i++) { // at most ~60 s
    if (exited) throw new Error('stator exited: ' + stderr)
    if (await healthy()) {
      return { child, ms: Number(process.hrtime.bigint() - started) / 1e6 }
    }
    await sleep(2)
  }
  child.kill('SIGKILL')
  throw new Error('no answer to GET / within 60 s')
}

async function stop (child) {
  if (child.exitCode !== null) return
  const gone = new Promise(resolve => child.on('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 15000)
  await gone
  clearTimeout(timer)
}

async function measure (name, storageArgs) {
  const times = []
  for (let i = 0; i < RUNS; i++) {
    fs.rmSync(path.join(OUT, 'data'), { recursive: true, force: true })
    const { child, ms } = await launch(storageArgs)
    times.push(ms)
    await stop(child)
  }
  fs.rmSync(path.join(OUT, 'data'), { recursive: true, force: true })
  const { child } = await launch(storageArgs)
  try {
    await sleep(5000)
    const idle = rssMb(child.pid)
    let loaded = null
    let loadSeconds = null
    if (ITEMS > 0) {
      const line = execFileSync('node', [path.join(__dirname, 'preload.js'),
        `http://127.0.0.1:${PORT}`, '--items', String(ITEMS),
        '--partitions', String(Math.ceil(ITEMS / 10))], { encoding: 'utf8' }).trim()
      loadSeconds = Number(/seconds=([\d.]+)/.exec(line)[1])
      await sleep(5000)
      loaded = rssMb(child.pid)
    }
    times.sort((a, b) => a - b)
    return { name, times, idle, loaded, loadSeconds }
  } finally {
    await stop(child)
    fs.rmSync(path.join(OUT, 'data'), { recursive: true, force: true })
  }
}

async function main () {
  const results = [
    await measure('in memory', ['--in-memory']),
    await measure('RocksDB', ['--data-dir', path.join(OUT, 'data')]),
  ]
  const median = xs => xs[Math.floor(xs.length / 2)]
  console.log(`| storage | start to first answer, ms (median of ${RUNS}; min-max) |` +
    ` RSS idle, MB | RSS after ${ITEMS} items, MB | load time, s |`)
  console.log('|---|---:|---:|---:|---:|')
  for (const r of results) {
    console.log(`| ${r.name} | ${median(r.times).toFixed(0)} (${r.times[0].toFixed(0)}-` +
      `${r.times[r.times.length - 1].toFixed(0)}) | ${r.idle.toFixed(0)} |` +
      ` ${r.loaded === null ? '-' : r.loaded.toFixed(0)} |` +
      ` ${r.loadSeconds === null ? '-' : r.loadSeconds.toFixed(1)} |`)
  }
}

main().catch(e => {
  console.error('startup benchmark failed: ' + e.message)
  process.exit(1)
})
