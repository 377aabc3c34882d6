#!/usr/bin/env node
// Summarises the CPU samples of a JFR recording: the hottest methods by self time (top frame)
// and by total time (anywhere on the stack), plus the split between thread groups.
//
//   jfr print --json --events jdk.ExecutionSample --stack-depth 64 x.jfr | node bench/hotspots.js [N]
'use strict'
const chunks = []
process.stdin.on('data', c => chunks.push(c))
process.stdin.on('end', () => {
  const top = Number(process.argv[2] || 25)
  const events = JSON.parse(Buffer.concat(chunks).toString()).recording.events
  const self = new Map()
  const total = new Map()
  const threads = new Map()
  const callers = new Map()
  const bump = (map, key) => map.set(key, (map.get(key) || 0) + 1)
  for (const e of events) {
    const frames = (e.values.stackTrace && e.values.stackTrace.frames) || []
    const name = f => `${f.method.type.name}.${f.method.name}`.replace(/\//g, '.')
      .replace(/\$\$Lambda\$.*\./, '$$$$Lambda.')
    if (frames.length > 0) {
      bump(self, name(frames[0]))
      // The first frame of Stator's own code under the top frame: who pays for it.
      const own = frames.find(f => name(f).startsWith('io.stator'))
      bump(callers, name(frames[0]) + '  <-  ' + (own ? name(own) : '(outside Stator)'))
    }
    for (const m of new Set(frames.map(name))) bump(total, m)
    const thread = (e.values.sampledThread && e.values.sampledThread.javaName) || '?'
    bump(threads, thread.replace(/-\d+(-\d+)?$/, '-N'))
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
})
