'use strict'
// The DynamoDB HTTP client that the loaders (preload.js, scale-load.js) share: AWS JSON 1.0
// requests over keep-alive connections, with a fixed signature that servers on loopback accept,
// and the command-line parsing they have in common.
const http = require('http')

// The number after NAME among the arguments, else DEF.
function option (args, name, def) {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : def
}

// A client of ENDPOINT (a URL) with up to IN_FLIGHT connections, each request bounded by
// TIMEOUT_MS. call() resolves { status, body } for any answer; must() resolves the body of a 200
// and rejects any other answer. Both take the operation (DynamoDB's by name, another service's
// as its whole target, e.g. DynamoDBStreams_20120810.GetRecords) and the body as a JSON string.
function client (endpoint, inFlight, timeoutMs) {
  const url = new URL(endpoint)
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight })

  function call (operation, data) {
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/',
        agent,
        timeout: timeoutMs,
        headers: {
          'Content-Type': 'application/x-amz-json-1.0',
          'Content-Length': Buffer.byteLength(data),
          'X-Amz-Target': operation.includes('.') ? operation : 'DynamoDB_20120810.' + operation,
          'X-Amz-Date': '20240101T000000Z',
          Authorization: 'AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/aws4_request, ' +
            'SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=00',
        },
      }, res => {
        const chunks = []
        res.on('data', c => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          try {
            resolve({ status: res.statusCode, text, body: text ? JSON.parse(text) : {} })
          } catch (e) {
            reject(new Error(`${operation} answered ${res.statusCode}: ${text.slice(0, 300)}`))
          }
        })
      })
      req.on('timeout', () => req.destroy(new Error(operation + ' timed out')))
      req.on('error', reject)
      req.end(data)
    })
  }

  async function must (operation, data) {
    const r = await call(operation, data)
    if (r.status !== 200) {
      throw new Error(`${operation} answered ${r.status}: ${r.text.slice(0, 300)}`)
    }
    return r.body
  }

  return { call, must, close: () => agent.destroy() }
}

// The key schema both loaders create: partition key pk (S), sort key sk (N), on demand.
const BENCH_TABLE = Object.freeze({
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
})

// Polls DescribeTable every POLL_MS (100 by default; 0: each as soon as the last is answered)
// until the table and all its indexes are ACTIVE (60 s at most).
async function waitActive (db, tableName, pollMs = 100) {
  const describe = JSON.stringify({ TableName: tableName })
  const deadline = Date.now() + 60000
  while (Date.now() < deadline) {
    const d = await db.must('DescribeTable', describe)
    const indexes = d.Table.GlobalSecondaryIndexes || []
    if (d.Table.TableStatus === 'ACTIVE' && indexes.every(x => x.IndexStatus === 'ACTIVE')) return
    if (pollMs > 0) await new Promise(resolve => setTimeout(resolve, pollMs))
  }
  throw new Error('table not ACTIVE after 60 s')
}

module.exports = { option, client, BENCH_TABLE, waitActive }
