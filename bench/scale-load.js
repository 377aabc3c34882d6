#!/usr/bin/env node
// Bulk-loads the scale benchmark's table through BatchWriteItem and reports the rate.
//
//   node bench/scale-load.js http://127.0.0.1:8000 --items 1000000 [--in-flight 32]
//
// Table "bench": partition key pk (S, "p0000", "p0001", ... as bench/wrk/common.lua draws them),
// sort key sk (N, 0..9), 10 items per partition, each ~150 bytes (DynamoDB's item size: a
// 100-byte payload, a counter n). No index. Batches of 25 items (BatchWriteItem's maximum),
// several requests in flight, each body written by hand rather than by JSON.stringify so that
// the loader is not the bottleneck. Unprocessed items are sent again. Any answer other than a 200
// ends the load with an error. Prints one line:
// "LOAD items=N seconds=S items_per_s=R requests=Q".
'use strict'
const { option, client, BENCH_TABLE, waitActive } = require('./dynamodb')

const args = process.argv.slice(2)
const ITEMS = option(args, '--items', 1000000)
const IN_FLIGHT = option(args, '--in-flight', 32)
const PER_PARTITION = 10
const PAYLOAD = 'abcdefghij'.repeat(10) // 100 bytes

const db = client(args[0] || 'http://127.0.0.1:8000', IN_FLIGHT, 120000)

function itemJson (i) {
  const p = Math.floor(i / PER_PARTITION)
  return '{"pk":{"S":"p' + String(p).padStart(4, '0') + '"},"sk":{"N":"' + (i % PER_PARTITION) +
    '"},"n":{"N":"' + i + '"},"payload":{"S":"' + PAYLOAD + '"}}'
}

async function createTable () {
  await db.must('CreateTable', JSON.stringify(BENCH_TABLE))
  await waitActive(db, 'bench')
}

async function load () {
  await createTable()
  const started = process.hrtime.bigint()
  let next = 0
  let requests = 0
  const retry = [] // unprocessed PutRequest objects, as the server returned them
  async function worker () {
    for (;;) {
      const writes = []
      while (writes.length < 25 && retry.length > 0) {
        writes.push(JSON.stringify(retry.pop()))
      }
      while (writes.length < 25 && next < ITEMS) {
        writes.push('{"PutRequest":{"Item":' + itemJson(next++) + '}}')
      }
      if (writes.length === 0) return
      const r = await db.must('BatchWriteItem', '{"RequestItems":{"bench":[' + writes.join(',') + ']}}')
      requests++
      retry.push(...((r.UnprocessedItems || {}).bench || []))
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  while (retry.length > 0) await worker()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  console.log(`LOAD items=${ITEMS} seconds=${seconds.toFixed(2)} ` +
    `items_per_s=${Math.round(ITEMS / seconds)} requests=${requests}`)
  db.close()
}

load().catch(e => {
  console.error('load failed: ' + e.message)
  process.exit(1)
})
