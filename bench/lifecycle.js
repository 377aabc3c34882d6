#!/usr/bin/env node
// Table lifecycle: how long CreateTable and DeleteTable take, as a test suite that makes a table
// per test sees them, with 0 and then more other tables in the store. Run through
// bench/lifecycle.sh.
//
//   node bench/lifecycle.js NAME=URL... [--tables 0,50,200] [--rounds 15]
//
// For each server, after 20 rounds of warm-up, and for each count of other tables (made first,
// and kept): ROUNDS times, a CreateTable (a table with a GSI) and DescribeTable until it and its
// index are ACTIVE, then a DeleteTable and DescribeTable until the table is gone; each
// DescribeTable follows the last answer at once. Prints the median and the largest time of both,
// in ms, as a Markdown table.
'use strict'
const { client, waitActive } = require('./dynamodb')

const args = process.argv.slice(2)
const servers = args.filter(a => /^[^-][^=]*=http/.test(a)).map(a => a.split(/=(.*)/s))
const listOption = (name, def) => {
  const i = args.indexOf(name)
  return (i >= 0 ? args[i + 1] : def).split(',').map(Number)
}
const COUNTS = listOption('--tables', '0,50,200')
const ROUNDS = listOption('--rounds', '15')[0]
const WARMUP = 20 // rounds before the first measured, with no other table

function table (name) {
  return JSON.stringify({
    TableName: name,
    AttributeDefinitions: [
      { AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'S' },
      { AttributeName: 'gpk', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [{
      IndexName: 'bygpk',
      KeySchema: [{ AttributeName: 'gpk', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'ALL' },
    }],
    BillingMode: 'PAY_PER_REQUEST',
  })
}

async function untilGone (db, name) {
  for (let i = 0; i < 100000; i++) {
    const r = await db.call('DescribeTable', JSON.stringify({ TableName: name }))
    if (r.status === 400 && /ResourceNotFoundException/.test(r.body.__type || '')) return
    if (r.status !== 200) throw new Error(`DescribeTable answered ${r.status}: ${r.text}`)
  }
  throw new Error(name + ' was never deleted')
}

const ms = t => Number(process.hrtime.bigint() - t) / 1e6
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

// One table made and deleted: the times of both, in ms.
async function round (db, t) {
  let start = process.hrtime.bigint()
  await db.must('CreateTable', table(t))
  await waitActive(db, t, 0)
  const created = ms(start)
  start = process.hrtime.bigint()
  await db.must('DeleteTable', JSON.stringify({ TableName: t }))
  await untilGone(db, t)
  return [created, ms(start)]
}

async function measure (name, url) {
  const db = client(url, 1, 60000)
  for (let r = 0; r < WARMUP; r++) await round(db, 'warmup' + r) // the server's code compiled
  const rows = []
  let others = 0
  for (const count of COUNTS) {
    for (; others < count; others++) {
      await db.must('CreateTable', table('other' + others))
      await waitActive(db, 'other' + others, 0)
    }
    const created = []
    const deleted = []
    for (let r = 0; r < ROUNDS; r++) {
      const [c, d] = await round(db, 'lifecycle' + count + '_' + r)
      created.push(c)
      deleted.push(d)
    }
    rows.push(`| ${name} | ${count} | ${median(created).toFixed(1)} | ` +
      `${Math.max(...created).toFixed(1)} | ${median(deleted).toFixed(1)} | ` +
      `${Math.max(...deleted).toFixed(1)} |`)
  }
  db.close()
  return rows
}

async function main () {
  if (servers.length === 0) {
    console.error('usage: node bench/lifecycle.js NAME=URL... [--tables 0,50,200] [--rounds 15]')
    process.exit(2)
  }
  console.log(`CreateTable (until ACTIVE) and DeleteTable (until gone), ${ROUNDS} of each, ms`)
  console.log('')
  console.log('| server | other tables | create, median | create, max | delete, median | delete, max |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const [name, url] of servers) {
    for (const row of await measure(name, url)) console.log(row)
  }
}

main().catch(e => { console.error(e.stack || String(e)); process.exit(1) })
