'use strict'
// The soak load (see soak.sh): for --minutes, IN_FLIGHT requests at a time against one server,
// a mix of what an application and its test suite do: PutItem, UpdateItem ADD, GetItem and
// Query on ~8,000 items of a table with a stream, a stream consumer reading it, and a
// CreateTable / DeleteTable cycle of a table with a stream every second. Prints one line of
// counts a minute and a last line of totals; exits 1 on any answer other than 200.
//
//   node bench/soak.js http://127.0.0.1:8000 [--minutes 30] [--in-flight 16]
const { option, client, waitActive } = require('./dynamodb')

const endpoint = process.argv[2]
const args = process.argv.slice(3)
const minutes = option(args, '--minutes', 30)
const inFlight = option(args, '--in-flight', 16)
const ITEMS = 8000
const STREAMS = 'DynamoDBStreams_20120810.'
const db = client(endpoint, inFlight + 2, 30000)
const counts = { put: 0, update: 0, get: 0, query: 0, records: 0, tables: 0 }

function table (name) {
  return JSON.stringify({
    TableName: name,
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  })
}

function key (n) {
  return { pk: { S: 'user#' + (n % 800) }, sk: { N: String(n) } }
}

async function worker (until) {
  const payload = 'x'.repeat(400)
  while (Date.now() < until) {
    const n = Math.floor(Math.random() * ITEMS)
    const pick = Math.random()
    if (pick < 0.35) {
      await db.must('PutItem', JSON.stringify({ TableName: 'soak', Item: { ...key(n), v: { S: payload } } }))
      counts.put++
    } else if (pick < 0.55) {
      await db.must('UpdateItem', JSON.stringify({
        TableName: 'soak', Key: key(n), UpdateExpression: 'ADD c :one',
        ExpressionAttributeValues: { ':one': { N: '1' } },
      }))
      counts.update++
    } else if (pick < 0.85) {
      await db.must('GetItem', JSON.stringify({ TableName: 'soak', Key: key(n) }))
      counts.get++
    } else {
      await db.must('Query', JSON.stringify({
        TableName: 'soak', KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': key(n).pk }, Limit: 20,
      }))
      counts.query++
    }
  }
}

// Reads every shard of the stream from its trim horizon, then follows the open shards.
async function consumer (arn, until) {
  const iterators = new Map()
  while (Date.now() < until) {
    const d = await db.must(STREAMS + 'DescribeStream', JSON.stringify({ StreamArn: arn }))
    for (const shard of d.StreamDescription.Shards) {
      if (iterators.has(shard.ShardId)) continue
      const it = await db.must(STREAMS + 'GetShardIterator', JSON.stringify({
        StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON',
      }))
      iterators.set(shard.ShardId, it.ShardIterator)
    }
    for (const [shard, iterator] of iterators) {
      if (!iterator) continue
      const r = await db.must(STREAMS + 'GetRecords', JSON.stringify({ ShardIterator: iterator }))
      counts.records += r.Records.length
      iterators.set(shard, r.NextShardIterator || null)
    }
    await new Promise(resolve => setTimeout(resolve, 200))
  }
}

// A test suite's table per test: created, written, deleted, once a second.
async function tables (until) {
  for (let i = 0; Date.now() < until; i++) {
    const name = 'churn-' + i
    await db.must('CreateTable', table(name))
    await waitActive(db, name, 0)
    for (let j = 0; j < 10; j++) {
      await db.must('PutItem', JSON.stringify({ TableName: name, Item: key(j) }))
    }
    await db.must('DeleteTable', JSON.stringify({ TableName: name }))
    counts.tables++
    await new Promise(resolve => setTimeout(resolve, 1000))
  }
}

async function main () {
  const created = await db.call('CreateTable', table('soak'))
  if (created.status !== 200 && !/ResourceInUse/.test(created.text)) {
    throw new Error('CreateTable answered ' + created.status + ': ' + created.text)
  }
  await waitActive(db, 'soak', 0)
  const arn = (await db.must('DescribeTable', JSON.stringify({ TableName: 'soak' }))).Table.LatestStreamArn
  const until = Date.now() + minutes * 60000
  const report = setInterval(() => console.log(JSON.stringify({ at: new Date().toISOString(), ...counts })), 60000)
  const work = [consumer(arn, until), tables(until)]
  for (let i = 0; i < inFlight; i++) work.push(worker(until))
  await Promise.all(work)
  clearInterval(report)
  console.log(JSON.stringify({ total: true, ...counts }))
  db.close()
}

main().catch(e => { console.error(e.message); process.exit(1) })
