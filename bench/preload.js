#!/usr/bin/env node
// Creates the benchmark table on a DynamoDB endpoint and loads it.
//
//   node bench/preload.js http://127.0.0.1:8000 [--items 10000] [--partitions 1000] [--no-gsi]
//                         [--replace]
//
// The table "bench": partition key pk (S, "p0000"...), sort key sk (N), items of ~1 KB spread
// evenly over the partitions, and a GSI "bygroup" (gpk, gsk) when the server accepts one in
// CreateTable (and --no-gsi does not leave it out); --replace deletes a table of that name first
// (a store that outlives the server, as a Cassandra keyspace does). Loads with BatchWriteItem
// (25 items) when the server answers it, else PutItem, 16 requests in flight. Every answer must
// be a 200; any other ends the load with an error. Prints one line:
// "PRELOAD items=N seconds=S via=BatchWriteItem|PutItem gsi=yes|no".
'use strict'
const { option, client, BENCH_TABLE, waitActive } = require('./dynamodb')

const args = process.argv.slice(2)
const ITEMS = option(args, '--items', 10000)
const PARTITIONS = option(args, '--partitions', 1000)
const PER_PARTITION = Math.ceil(ITEMS / PARTITIONS)
const GSI = !args.includes('--no-gsi')
const REPLACE = args.includes('--replace')
const IN_FLIGHT = 16
const PAYLOAD = '0123456789abcdef'.repeat(60) // the same 960 bytes as wrk/common.lua

const db = client(args[0] || 'http://127.0.0.1:8000', IN_FLIGHT, 60000)
const call = (operation, body) => db.call(operation, JSON.stringify(body))
const must = (operation, body) => db.must(operation, JSON.stringify(body))

function item (i) {
  const p = Math.floor(i / PER_PARTITION)
  const sk = i % PER_PARTITION
  const pk = 'p' + String(p).padStart(4, '0')
  return {
    pk: { S: pk },
    sk: { N: String(sk) },
    n: { N: String(i) },
    gpk: { S: 'g' + String(p % 100).padStart(3, '0') },
    gsk: { S: pk + '#' + sk },
    payload: { S: PAYLOAD },
  }
}

async function deleteTable () {
  const name = { TableName: 'bench' }
  if ((await call('DeleteTable', name)).status !== 200) return // none
  const deadline = Date.now() + 60000
  while ((await call('DescribeTable', name)).status === 200) {
    if (Date.now() > deadline) throw new Error('table bench still there 60 s after DeleteTable')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

async function createTable () {
  if (REPLACE) await deleteTable()
  const withGsi = {
    ...BENCH_TABLE,
    AttributeDefinitions: [
      ...BENCH_TABLE.AttributeDefinitions,
      { AttributeName: 'gpk', AttributeType: 'S' },
      { AttributeName: 'gsk', AttributeType: 'S' },
    ],
    GlobalSecondaryIndexes: [{
      IndexName: 'bygroup',
      KeySchema: [
        { AttributeName: 'gpk', KeyType: 'HASH' },
        { AttributeName: 'gsk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    }],
  }
  let gsi = GSI
  let r = await call('CreateTable', gsi ? withGsi : BENCH_TABLE)
  if (r.status !== 200 && gsi) {
    gsi = false
    r = await call('CreateTable', BENCH_TABLE)
  }
  if (r.status !== 200) {
    throw new Error('CreateTable answered ' + r.status + ': ' + JSON.stringify(r.body))
  }
  await waitActive(db, 'bench')
  return gsi
}

async function load () {
  const started = process.hrtime.bigint()
  const gsi = await createTable()
  // Probe BatchWriteItem with the first batch; fall back to PutItem when the server refuses it.
  const first = []
  for (let i = 0; i < Math.min(25, ITEMS); i++) first.push({ PutRequest: { Item: item(i) } })
  const probe = await call('BatchWriteItem', { RequestItems: { bench: first } })
  const batches = probe.status === 200
  let next = batches ? first.length : 0
  let pending = batches ? Object.values(probe.body.UnprocessedItems || {}).flat() : []
  async function worker () {
    for (;;) {
      if (batches) {
        const writes = pending.splice(0, 25)
        while (writes.length < 25 && next < ITEMS) writes.push({ PutRequest: { Item: item(next++) } })
        if (writes.length === 0) return
        const r = await must('BatchWriteItem', { RequestItems: { bench: writes } })
        pending.push(...((r.UnprocessedItems || {}).bench || []))
      } else {
        if (next >= ITEMS) return
        await must('PutItem', { TableName: 'bench', Item: item(next++) })
      }
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  while (pending.length > 0) await worker()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  console.log(`PRELOAD items=${ITEMS} seconds=${seconds.toFixed(2)} ` +
    `via=${batches ? 'BatchWriteItem' : 'PutItem'} gsi=${gsi ? 'yes' : 'no'}`)
  db.close()
}

load().catch(e => {
  console.error('preload failed: ' + e.message)
  process.exit(1)
})
