#!/usr/bin/env node
// Prints the Markdown report of one bench/run.sh run from its directory (bench/out/run-*).
//
// Per workload and server: the median over the repeats of throughput, p50 and p99 latency, the
// server's CPU seconds per run and per request, and the ratio to the peer with the same storage
// class (Stator in memory vs dynalite in memory, Stator on RocksDB vs dynalite on LevelDB):
// throughput as Stator / dynalite, latency as dynalite / Stator (so above 1 means Stator is
// better in every column). A server with any bad answer or socket error is INVALID.
'use strict'
const fs = require('fs')
const path = require('path')

const dir = process.argv[2]
const read = name => {
  const file = path.join(dir, name)
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : ''
}
const lines = read('results.tsv').split('\n')
const header = lines.shift().split('\t')
const rows = lines.filter(Boolean).map(line => {
  const cells = line.split('\t')
  const row = Object.fromEntries(header.map((h, i) => [h, cells[i]]))
  for (const k of header.slice(2)) row[k] = Number(row[k])
  return row
})

const median = xs => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const peers = { 'stator-memory': 'dynalite-memory', 'stator-rocksdb': 'dynalite-leveldb' }

const groups = new Map()
for (const r of rows) {
  const key = r.workload + '\t' + r.server
  if (!groups.has(key)) groups.set(key, [])
  groups.get(key).push(r)
}
const stats = new Map()
for (const [key, runs] of groups) {
  const [workload, server] = key.split('\t')
  const rps = runs.map(r => r.requests / (r.duration_us / 1e6))
  stats.set(key, {
    workload,
    server,
    runs: runs.length,
    rps: median(rps),
    spread: runs.length > 1 ? (Math.max(...rps) - Math.min(...rps)) / median(rps) : 0,
    p50: median(runs.map(r => r.p50_us)) / 1000,
    p99: median(runs.map(r => r.p99_us)) / 1000,
    cpu: median(runs.map(r => r.server_cpu_s)),
    cpuPerRequest: median(runs.map(r => (r.server_cpu_s * 1e6) / Math.max(1, r.requests))),
    generatorCpu: median(runs.map(r => r.generator_cpu_s)),
    valid: runs.every(r => r.requests > 0 && r.bad === 0 && r.socket_errors === 0),
  })
}

const fmt = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '-')
const out = []
out.push(read('machine.txt').split('\n').map(l => '- ' + l).join('\n'))
out.push('')
out.push('| workload | server | req/s | p50 ms | p99 ms | spread | server CPU s | CPU µs/req |' +
  ' wrk CPU s | vs peer: req/s, p50, p99 | valid |')
out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|')
const ceiling = stats.get('ceiling\tnginx')
for (const s of stats.values()) {
  let versus = ''
  const peer = stats.get(s.workload + '\t' + peers[s.server])
  if (peer && peer.valid && s.valid) {
    versus = `${fmt(s.rps / peer.rps, 2)}×, ${fmt(peer.p50 / s.p50, 2)}×, ${fmt(peer.p99 / s.p99, 2)}×`
  }
  if (ceiling && s.workload === 'get' && s.server.startsWith('stator')) {
    versus += `${versus ? '; ' : ''}${fmt((100 * s.rps) / ceiling.rps, 0)}% of ceiling`
  }
  out.push(`| ${s.workload} | ${s.server} | ${fmt(s.rps, 0)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} |` +
    ` ${fmt(100 * s.spread, 0)}% | ${fmt(s.cpu, 2)} | ${fmt(s.cpuPerRequest, 0)} |` +
    ` ${fmt(s.generatorCpu, 2)} | ${versus} | ${s.valid ? 'yes' : 'INVALID'} |`)
}
out.push('')
out.push('"spread" is (max - min) / median of the throughput over the repeats.')
const notes = read('notes.txt')
if (notes) {
  out.push('')
  out.push('Skipped:')
  for (const n of notes.split('\n')) out.push('- ' + n)
}
const preload = read('preload.txt')
const rss = read('rss.txt')
if (preload || rss) {
  out.push('')
  out.push('Preload and memory:')
  for (const l of [...preload.split('\n'), ...rss.split('\n')].filter(Boolean)) out.push('- ' + l)
}
console.log(out.join('\n'))
