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
const http = require('http')

const args = process.argv.slice(2)
const endpoint = new URL(args[0] || 'http://127.0.0.1:8000')
const option = (name, def) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : def
}
const ITEMS = option('--items', 1000000)
const IN_FLIGHT = option('--in-flight', 32)
const PER_PARTITION = 10
const PAYLOAD = 'abcdefghij'.repeat(10) // 100 bytes

const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT })

function post (operation, data) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: endpoint.hostname,
      port: endpoint.port,
      method: 'POST',
      path: '/',
      agent,
      timeout: 120000,
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'Content-Length': Buffer.byteLength(data),
        'X-Amz-Target': 'DynamoDB_20120810.' + operation,
        'X-Amz-Date': '20240101T000000Z',
        Authorization: 'AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/aws4_request, ' +
          'SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=00',
      },
    }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        if (res.statusCode !== 200) {
          reject(new Error(`${operation} answered ${res.statusCode}: ${text.slice(0, 300)}`))
        } else {
          resolve(text ? JSON.parse(text) : {})
        }
      })
    })
    req.on('timeout', () => req.destroy(new Error(operation + ' timed out')))
    req.on('error', reject)
    req.end(data)
  })
}

function itemJson (i) {
  const p = Math.floor(i / PER_PARTITION)
  return '{"pk":{"S":"p' + String(p).padStart(4, '0') + '"},"sk":{"N":"' + (i % PER_PARTITION) +
    '"},"n":{"N":"' + i + '"},"payload":{"S":"' + PAYLOAD + '"}}'
}

async function createTable () {
  await post('CreateTable', JSON.stringify({
    TableName: 'bench',
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    BillingMode: 'PAY_PER_REQUEST',
  }))
  for (let i = 0; i < 600; i++) {
    const d = await post('DescribeTable', '{"TableName":"bench"}')
    if (d.Table.TableStatus === 'ACTIVE') return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error('table not ACTIVE after 60 s')
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
      const r = await post('BatchWriteItem', '{"RequestItems":{"bench":[' + writes.join(',') + ']}}')
      requests++
      retry.push(...((r.UnprocessedItems || {}).bench || []))
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  while (retry.length > 0) await worker()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  console.log(`LOAD items=${ITEMS} seconds=${seconds.toFixed(2)} ` +
    `items_per_s=${Math.round(ITEMS / seconds)} requests=${requests}`)
  agent.destroy()
}

load().catch(e => {
  console.error('load failed: ' + e.message)
  process.exit(1)
})
