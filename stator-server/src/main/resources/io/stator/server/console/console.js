// Stator's console: a page that shows what DynamoDB hides (item collections, partitions, hot
// keys), talking to the server only through DynamoDB's API and Stator's documented endpoints.
'use strict';

// Without --auth sigv4 the server takes any well-formed signature, as every local tool sends.
const AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=console/20260101/us-east-1/dynamodb/'
    + 'aws4_request, SignedHeaders=host;x-amz-date, Signature=' + '0'.repeat(64);
const COLLECTION_ITEMS = 500;
const PALETTE = ['#2f6fb0', '#a3478f', '#2e8b57', '#c0651a', '#6a5acd', '#b8860b', '#008b8b',
  '#c2185b'];

async function api(operation, body) {
  const response = await fetch('/', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': 'DynamoDB_20120810.' + operation,
      'X-Amz-Date': new Date().toISOString().replace(/[-:]|\.\d+/g, ''),
      'Authorization': AUTHORIZATION,
    },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) {
    throw new Error((json.__type || '').split('#').pop() + ': ' + (json.message || json.Message));
  }
  return json;
}

function el(tag, attributes, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

// ---- values, in DynamoDB's order -----------------------------------------------------------

function scalar(value) {
  const [type, v] = Object.entries(value)[0];
  return {type, v};
}

function show(value) {
  const {type, v} = scalar(value);
  switch (type) {
    case 'S': case 'N': case 'B': return v;
    case 'BOOL': return String(v);
    case 'NULL': return 'null';
    case 'SS': case 'NS': case 'BS': return '<<' + v.join(', ') + '>>';
    case 'L': return '[' + v.map(show).join(', ') + ']';
    case 'M': return '{' + Object.entries(v).map(([k, x]) => k + ': ' + show(x)).join(', ') + '}';
    default: return JSON.stringify(value);
  }
}

/** Numbers as DynamoDB orders them: by value, exactly (up to 38 digits), not as doubles. */
function compareNumbers(a, b) {
  const parse = (text) => {
    const sign = text.startsWith('-') ? -1 : 1;
    const [mantissa, exponent = '0'] = text.replace(/^[-+]/, '').toLowerCase().split('e');
    const [whole, fraction = ''] = mantissa.split('.');
    let digits = whole + fraction;
    let point = whole.length + Number(exponent);
    const zeros = digits.match(/^0*/)[0].length;
    digits = digits.slice(zeros).replace(/0+$/, '');
    point -= zeros;
    return digits ? {sign, point, digits} : {sign: 0, point: 0, digits: ''};
  };
  const x = parse(a);
  const y = parse(b);
  if (x.sign !== y.sign) return x.sign - y.sign;
  if (x.sign === 0) return 0;
  const magnitude = x.point !== y.point ? x.point - y.point
      : (x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0);
  return x.sign * Math.sign(magnitude);
}

/** Strings as DynamoDB orders them: by their UTF-8 bytes, that is by code point. */
function compareStrings(a, b) {
  const x = Array.from(a), y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

function compareBinary(a, b) {
  const x = atob(a), y = atob(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x.charCodeAt(i) - y.charCodeAt(i);
    if (d) return d;
  }
  return x.length - y.length;
}

function compareKeys(a, b) {
  const x = scalar(a), y = scalar(b);
  if (x.type === 'N') return compareNumbers(x.v, y.v);
  if (x.type === 'B') return compareBinary(x.v, y.v);
  return compareStrings(x.v, y.v);
}

/** The entity type a key value names by its prefix: USER#42 is a USER. */
function entityOf(value) {
  const {type, v} = scalar(value);
  if (type !== 'S') return null;
  const m = /^([A-Za-z][A-Za-z0-9_-]*)[#|:]/.exec(v);
  return m ? m[1] : null;
}

function colorOf(entity) {
  let h = 0;
  for (const c of entity) h = (h * 31 + c.codePointAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

function badge(entity) {
  return entity ? el('span', {class: 'entity', style: 'background:' + colorOf(entity)}, entity)
      : null;
}

// ---- views ---------------------------------------------------------------------------------

async function tablesView(view) {
  const names = [];
  let start;
  do {
    const page = await api('ListTables', start ? {ExclusiveStartTableName: start} : {});
    names.push(...page.TableNames);
    start = page.LastEvaluatedTableName;
  } while (start);
  const rows = [];
  for (const name of names) {
    const t = (await api('DescribeTable', {TableName: name})).Table;
    const key = (schema) => schema.map((k) => k.AttributeName + ' (' + k.KeyType + ')').join(', ');
    const indexes = [...(t.GlobalSecondaryIndexes || []).map((i) => i.IndexName + ' (GSI)'),
      ...(t.LocalSecondaryIndexes || []).map((i) => i.IndexName + ' (LSI)')];
    rows.push(el('tr', {class: 'table-row'},
        el('td', {}, el('a', {href: '#/table/' + encodeURIComponent(name)}, name)),
        el('td', {}, t.TableStatus),
        el('td', {}, key(t.KeySchema)),
        el('td', {}, t.ItemCount),
        el('td', {}, t.TableSizeBytes),
        el('td', {}, (t.BillingModeSummary || {}).BillingMode || 'PROVISIONED'),
        el('td', {}, indexes.join(', ') || '—'),
        el('td', {}, t.StreamSpecification && t.StreamSpecification.StreamEnabled
            ? t.StreamSpecification.StreamViewType : '—')));
  }
  view.replaceChildren(el('h1', {}, 'Tables'),
      names.length === 0 ? el('p', {class: 'muted'}, 'No tables yet.')
          : el('table', {id: 'tables'},
              el('tr', {}, ['Table', 'Status', 'Key', 'Items', 'Bytes', 'Billing', 'Indexes',
                'Stream'].map((h) => el('th', {}, h))),
              rows));
}

async function tableView(view, name, descending) {
  const table = (await api('DescribeTable', {TableName: name})).Table;
  const hash = table.KeySchema.find((k) => k.KeyType === 'HASH').AttributeName;
  const rangeKey = table.KeySchema.find((k) => k.KeyType === 'RANGE');
  const range = rangeKey ? rangeKey.AttributeName : null;
  const items = [];
  let start;
  do {
    const page = await api('Scan', start ? {TableName: name, ExclusiveStartKey: start}
        : {TableName: name});
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start && items.length < COLLECTION_ITEMS);

  // Item collections: the items of one partition key value, in sort-key order.
  const collections = new Map();
  for (const item of items) {
    const key = JSON.stringify(item[hash]);
    if (!collections.has(key)) collections.set(key, {pk: item[hash], items: []});
    collections.get(key).items.push(item);
  }
  const entities = new Set();
  const sections = [];
  for (const c of collections.values()) {
    if (range) {
      c.items.sort((a, b) => (descending ? -1 : 1) * compareKeys(a[range], b[range]));
    }
    const pkEntity = entityOf(c.pk);
    if (pkEntity) entities.add(pkEntity);
    const others = [...new Set(c.items.flatMap((i) => Object.keys(i)))]
        .filter((a) => a !== hash && a !== range).sort();
    const rows = c.items.map((item) => {
      const entity = range ? entityOf(item[range]) : null;
      if (entity) entities.add(entity);
      return el('tr', {class: 'item'},
          range ? el('td', {class: 'value sort-key'}, badge(entity), ' ', show(item[range])) : null,
          others.map((a) => el('td', {class: 'value'}, item[a] ? show(item[a]) : '')));
    });
    sections.push(el('div', {class: 'collection'},
        el('div', {class: 'pk'}, hash + ' = ', badge(pkEntity), ' ',
            el('span', {class: 'value partition-key'}, show(c.pk)),
            el('span', {class: 'muted'}, ' · ' + c.items.length + ' item(s)')),
        el('table', {},
            el('tr', {}, range ? el('th', {}, range) : null, others.map((a) => el('th', {}, a))),
            rows)));
  }
  const order = el('div', {class: 'toolbar'},
      el('a', {href: '#/table/' + encodeURIComponent(name)}, 'ascending'),
      el('a', {href: '#/table/' + encodeURIComponent(name) + '?order=desc'}, 'descending'),
      el('span', {class: 'muted'}, items.length + ' item(s) in ' + collections.size
          + ' collection(s)' + (start ? ', first ' + items.length + ' shown' : '')));
  const legend = el('p', {class: 'legend'}, [...entities].sort().map(badge));
  view.replaceChildren(el('h1', {}, name), el('h2', {}, 'Item collections'), order, legend,
      ...sections, el('h2', {}, 'Partitions'), await partitions(name));
}

async function partitions(name) {
  const response = await fetch('/stator/tables/' + encodeURIComponent(name) + '/partitions');
  if (!response.ok) {
    return el('p', {class: 'muted'}, 'No partition report: ' + response.status);
  }
  const report = await response.json();
  const rows = report.Partitions.map((p) => el('tr', {class: 'partition'},
      el('td', {}, p.Index),
      el('td', {class: 'value'}, p.HashStart + ' – ' + p.HashEnd),
      el('td', {}, p.SizeBytes),
      el('td', {}, p.ReadCapacityUnitsPerSecond.toFixed(1) + ' / '
          + p.WriteCapacityUnitsPerSecond.toFixed(1)),
      el('td', {}, p.ReadThrottles + p.WriteThrottles),
      el('td', {}, p.HotKeys.map((k) => el('div', {class: 'hot-key value'},
          k.PartitionKey + ' (' + k.ReadCapacityUnits.toFixed(1) + ' RCU, '
              + k.WriteCapacityUnits.toFixed(1) + ' WCU)')))));
  return el('div', {},
      el('p', {class: 'muted'}, report.CapacityMode + ' · throttles: ' + report.ReadThrottles
          + ' read, ' + report.WriteThrottles + ' write · splits: '
          + (report.SplitsForHeat + report.SplitsForSize + report.SplitsForThroughput)),
      el('table', {id: 'partitions'},
          el('tr', {}, ['Partition', 'Hash range', 'Bytes', 'RCU / WCU per s', 'Throttles',
            'Hottest keys'].map((h) => el('th', {}, h))),
          rows));
}

async function route() {
  const view = document.getElementById('view');
  const crumbs = document.getElementById('crumbs');
  const m = /^#\/table\/([^?]+)(\?order=desc)?$/.exec(location.hash);
  try {
    if (m) {
      const name = decodeURIComponent(m[1]);
      crumbs.replaceChildren(el('a', {href: '#/'}, 'Tables'), ' / ', name);
      await tableView(view, name, Boolean(m[2]));
    } else {
      crumbs.replaceChildren();
      await tablesView(view);
    }
  } catch (e) {
    view.replaceChildren(el('p', {class: 'error'}, e.message));
  }
  document.body.dataset.ready = 'true';
}

window.addEventListener('hashchange', route);
route();
