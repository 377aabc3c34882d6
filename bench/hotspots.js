#!/usr/bin/env node
// Summarises the CPU samples of a JFR recording: the hottest methods by self time (top frame)
// and by total time (anywhere on the stack), plus the split between thread groups; then the
// share of the coordination of several servers on one store (leases, stream watermarks, the
// catalog checks, ...) against the rest of the server's work, in CPU samples and, when the
// recording has allocation samples, in bytes allocated.
//
//   jfr print --events jdk.ExecutionSample[,jdk.ObjectAllocationSample] --stack-depth 64 x.jfr \
//     | node bench/hotspots.js [N]
//
// Reads jfr's text form line by line: its JSON form of a recording with allocation samples runs
// past what one string of Node can hold.
'use strict'
const readline = require('readline')

// The coordination between servers (docs/cassandra.md, "Several servers"): a sample is counted in
// the first of these whose pattern matches any frame of its stack, or whose thread it ran on, so
// that what a background job spends in the driver or the item codec is counted as the job's.
const COORDINATION = [
  ['stream watermarks', /^io\.stator\.stream\.(Watermarks|WriterIds)\./, /^stream-watermark-/],
  // The jobs' leases, and the backfills' lease with its look for CREATING indexes every 2 s.
  ['leases', /^io\.stator\.(lease\.|index\.Indexes\.resumeBackfills)/,
    /^stator-(.*-leases|gsi-backfill-lease)$/],
  ['housekeeping', /^io\.stator\.(engine\.Housekeeping|schema\.OrphanSpaces)\./,
    /^stator-housekeeping$/],
  ['TTL sweep', /^io\.stator\.ttl\.TimeToLiveSweeper\./, /^stator-ttl-sweeper$/],
  ['request tokens', /^io\.stator\.engine\.StoredRequestTokens\./, null],
  // The table's definition trusted for a second, then read again from the catalog.
  ['catalog: table cache', /^io\.stator\.engine\.TableCache\./, null],
  // The write hook, which adds the catalog version's expectation to every write's commit (and,
  // on a table of this benchmark's, nothing else: no index, stream nor history).
  ['catalog: Indexes.stage', /^io\.stator\.index\.Indexes\.stage$/, null],
]

// The rest, by the innermost frame that matches (the driver's own threads by their name).
const REST = [
  ['Cassandra driver, CassandraStorage', /^(com\.datastax|io\.stator\.storage\.cassandra)\./,
    /^s\d+-(io|admin|timer)/],
  ['JSON, wire and validation', /^io\.stator\.server\.(wire|model)\./, null],
  ['item and key codecs', /^io\.stator\.(item|key|value)\./, null],
  ['HTTP (Netty, server)', /^(io\.netty|io\.stator\.server)\./, null],
  ['engine, other', /^io\.stator\./, null],
]

// The events of jfr print's text form: { type, thread, frames (innermost first), weight }.
const all = []
let event = null
let inStack = false
const UNITS = { bytes: 1, byte: 1, kB: 1024, MB: 1048576, GB: 1073741824 }
readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', line => {
  if (event === null) {
    const header = /^(jdk\.\w+) \{$/.exec(line)
    if (header) event = { type: header[1], thread: '?', frames: [], weight: 0 }
    return
  }
  if (inStack) {
    if (/^\s*\]$/.test(line)) {
      inStack = false
    } else if (!/^\s*\.\.\.$/.test(line)) {
      const frame = line.trim()
      event.frames.push(frame.substring(0, frame.indexOf('(') < 0 ? frame.length
        : frame.indexOf('(')).replace(/\$\$Lambda\$.*\./, '$$$$Lambda.'))
    }
    return
  }
  let m
  if (/^\}$/.test(line)) {
    all.push(event)
    event = null
  } else if (/^\s*stackTrace = \[$/.test(line)) {
    inStack = true
  } else if ((m = /^\s*(sampledThread|eventThread) = "(.*)" \(/.exec(line))) {
    event.thread = m[2]
  } else if ((m = /^\s*weight = ([\d.]+) (\w+)$/.exec(line))) {
    event.weight = Number(m[1]) * (UNITS[m[2]] || 1)
  }
}).on('close', () => {
  const top = Number(process.argv[2] || 25)
  const events = all.filter(e => e.type === 'jdk.ExecutionSample')
  const allocations = all.filter(e => e.type === 'jdk.ObjectAllocationSample')
  const self = new Map()
  const total = new Map()
  const threads = new Map()
  const callers = new Map()
  const bump = (map, key, by = 1) => map.set(key, (map.get(key) || 0) + by)
  for (const e of events) {
    const frames = e.frames
    if (frames.length > 0) {
      bump(self, frames[0])
      // The first frame of Stator's own code under the top frame: who pays for it.
      const own = frames.find(f => f.startsWith('io.stator'))
      bump(callers, frames[0] + '  <-  ' + (own || '(outside Stator)'))
    }
    for (const m of new Set(frames)) bump(total, m)
    bump(threads, e.thread.replace(/-\d+(-\d+)?$/, '-N'))
  }
  const n = events.length
  const show = (title, map, filter = () => true) => {
    console.log(`\n${title}`)
    ;[...map.entries()].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, top)
      .forEach(([k, v]) => console.log(`${((100 * v) / n).toFixed(1).padStart(5)}%  ${k}`))
  }
  console.log(`${n} samples`)
  show('threads', threads)
  show('self (top frame)', self)
  show('self, with the innermost Stator method above it', callers)
  show('total (on the stack), Stator methods and a few known suspects', total,
    k => /io\.stator|CRC32|UUID|SecureRandom|JsonFactory/.test(k))

  // Coordination against the rest: in CPU samples and in sampled bytes allocated.
  const categorise = e => {
    const names = e.frames
    const thread = e.thread
    for (const [label, frame, threadName] of COORDINATION) {
      const inner = names.find(m => frame.test(m))
      if (inner || (threadName && threadName.test(thread))) {
        // Named by its own innermost method, else (a job's thread) by Stator's innermost.
        const method = inner || names.find(m => m.startsWith('io.stator')) || names[0] || '?'
        return { label, coordination: true, method }
      }
    }
    for (const [label, frame, threadName] of REST) {
      if (threadName && threadName.test(thread)) return { label, coordination: false }
    }
    for (const m of names) {
      for (const [label, frame] of REST) {
        if (frame.test(m)) return { label, coordination: false }
      }
    }
    return { label: 'JDK and other', coordination: false }
  }
  const split = (title, list, weight, unit) => {
    if (list.length === 0) return
    const by = new Map()
    const methods = new Map()
    let sum = 0
    let coordination = 0
    for (const e of list) {
      const w = weight(e)
      const c = categorise(e)
      sum += w
      bump(by, c.label, w)
      if (c.coordination) {
        coordination += w
        bump(methods, `${c.label}: ${c.method}`, w)
      }
    }
    const pct = v => `${((100 * v) / sum).toFixed(2).padStart(6)}%`
    console.log(`\n${title}: ${unit(sum)}; coordination ${pct(coordination).trim()}, ` +
      `the rest ${pct(sum - coordination).trim()}`)
    const labels = [...COORDINATION.map(c => c[0]), ...REST.map(r => r[0]), 'JDK and other']
    for (const label of labels) {
      const mark = COORDINATION.some(c => c[0] === label) ? 'coordination' : 'the rest'
      console.log(`${pct(by.get(label) || 0)}  ${label.padEnd(36)} (${mark})`)
    }
    console.log(`  coordination by method (its own innermost, else Stator's):`)
    ;[...methods.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)
      .forEach(([k, v]) => console.log(`  ${pct(v)}  ${k}`))
  }
  split('CPU samples', events, () => 1, s => `${s} samples`)
  split('allocation (sampled bytes)', allocations, e => e.weight,
    b => `${(b / 1048576).toFixed(0)} MB sampled`)
})
