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
  return call('DynamoDB_20120810.' + operation, body);
}

async function streamsApi(operation, body) {
  return call('DynamoDBStreams_20120810.' + operation, body);
}

async function call(target, body) {
  const text = JSON.stringify(body);
  const headers = await signed('POST', '/', {
    'content-type': 'application/x-amz-json-1.0',
    'x-amz-target': target,
  }, text);
  const response = await fetch('/', {method: 'POST', headers, body: text});
  const json = await response.json();
  if (!response.ok) {
    throw new Error((json.__type || '').split('#').pop() + ': ' + (json.message || json.Message));
  }
  return json;
}

// ---- signatures ----------------------------------------------------------------------------

/**
 * The keys the console signs with when the server verifies signatures (--auth sigv4), kept for
 * this tab only (sessionStorage); without them it sends a well-formed, unverified signature,
 * which a server without --auth sigv4 takes.
 */
function credentials() {
  const stored = sessionStorage.getItem('stator.credentials');
  return stored ? JSON.parse(stored) : null;
}

const encoder = new TextEncoder();

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256(text) {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

async function hmac(key, text) {
  const k = await crypto.subtle.importKey('raw', typeof key === 'string' ? encoder.encode(key)
      : key, {name: 'HMAC', hash: 'SHA-256'}, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(text));
}

/** The request's headers with a SigV4 signature over them, as the AWS SDKs sign for DynamoDB. */
async function signed(method, path, headers, body) {
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  const all = Object.assign({}, headers, {'x-amz-date': amzDate});
  const keys = credentials();
  if (!keys) {
    all['authorization'] = AUTHORIZATION;
    return all;
  }
  if (keys.sessionToken) all['x-amz-security-token'] = keys.sessionToken;
  const date = amzDate.slice(0, 8);
  const scope = date + '/us-east-1/dynamodb/aws4_request';
  const signedHeaders = ['host', ...Object.keys(all)].sort();
  const value = (h) => h === 'host' ? location.host : all[h];
  const canonical = [method, path, '', ...signedHeaders.map((h) => h + ':' + value(h)), '',
    signedHeaders.join(';'), await sha256(body)].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, await sha256(canonical)].join('\n');
  let key = await hmac('AWS4' + keys.secretAccessKey, date);
  for (const part of ['us-east-1', 'dynamodb', 'aws4_request']) key = await hmac(key, part);
  all['authorization'] = 'AWS4-HMAC-SHA256 Credential=' + keys.accessKeyId + '/' + scope
      + ', SignedHeaders=' + signedHeaders.join(';') + ', Signature=' + hex(await hmac(key,
      toSign));
  return all;
}

/** A form for the keys to sign with, in the page's header. */
function credentialsForm() {
  const keys = credentials();
  const form = el('form', {id: 'credentials'},
      el('input', {name: 'accessKeyId', placeholder: 'access key id', size: '14',
        value: keys ? keys.accessKeyId : ''}), ' ',
      el('input', {name: 'secretAccessKey', placeholder: 'secret', type: 'password', size: '14'}),
      ' ', el('input', {name: 'sessionToken', placeholder: 'session token (optional)',
        size: '14'}), ' ', el('button', {type: 'submit'}, 'Sign in'), ' ',
      el('button', {type: 'button', id: 'sign-out'}, 'Sign out'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    sessionStorage.setItem('stator.credentials', JSON.stringify({
      accessKeyId: data.get('accessKeyId'), secretAccessKey: data.get('secretAccessKey'),
      sessionToken: data.get('sessionToken') || null}));
    route();
  });
  form.querySelector('#sign-out').addEventListener('click', () => {
    sessionStorage.removeItem('stator.credentials');
    route();
  });
  return form;
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
    case 'M': return '{' + Object.keys(v).sort().map((k) => k + ': ' + show(v[k])).join(', ')
        + '}';
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

/** A colour per entity type, the same on every page (FNV-1a of its name). */
function colorOf(entity) {
  let h = 2166136261;
  for (const c of entity) h = Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0;
  return PALETTE[(h >>> 13) % PALETTE.length];
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
      el('p', {}, el('a', {href: '#/partiql'}, 'PartiQL editor')),
      names.length === 0 ? el('p', {class: 'muted'}, 'No tables yet.')
          : el('table', {id: 'tables'},
              el('tr', {}, ['Table', 'Status', 'Key', 'Items', 'Bytes', 'Billing', 'Indexes',
                'Stream'].map((h) => el('th', {}, h))),
              rows),
      el('h2', {}, 'Create a table'), createTableForm());
}

const KEY_TYPES = ['S', 'N', 'B'];

function keyFields(prefix, label) {
  return [el('label', {}, label + ' ', el('input', {name: prefix + 'Name', size: '12'})), ' ',
    el('select', {name: prefix + 'Type'}, KEY_TYPES.map((t) => el('option', {value: t}, t)))];
}

/** The attribute definitions and key schema of a form's partition and sort key fields. */
function keysOf(data, definitions) {
  const schema = [];
  for (const [prefix, keyType] of [['pk', 'HASH'], ['sk', 'RANGE']]) {
    const name = (data.get(prefix + 'Name') || '').trim();
    if (!name) continue;
    schema.push({AttributeName: name, KeyType: keyType});
    if (!definitions.some((d) => d.AttributeName === name)) {
      definitions.push({AttributeName: name, AttributeType: data.get(prefix + 'Type')});
    }
  }
  return schema;
}

/** A form whose submit runs an action and reports it in the form's status line. */
function actionForm(id, fields, button, action) {
  const status = el('span', {class: 'form-status'});
  const form = el('form', {id}, fields, ' ', el('button', {type: 'submit'}, button), ' ', status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.className = 'form-status';
    status.textContent = '…';
    document.body.dataset.done = '';
    try {
      await action(new FormData(form));
      status.textContent = 'Done.';
      await route();
      document.body.dataset.done = 'ok';
    } catch (e) {
      status.className = 'form-status error';
      status.textContent = e.message;
      document.body.dataset.done = 'error';
    }
  });
  return form;
}

const STREAM_VIEWS = ['NEW_AND_OLD_IMAGES', 'NEW_IMAGE', 'OLD_IMAGE', 'KEYS_ONLY'];

/** A select of a table's stream: none, or one of the view types. */
function streamSelect(current) {
  return el('select', {name: 'stream'},
      el('option', {value: ''}, 'no stream'),
      STREAM_VIEWS.map((v) => el('option', v === current ? {value: v, selected: ''}
          : {value: v}, 'stream ' + v)));
}

function createTableForm() {
  return actionForm('create-table', [
    el('label', {}, 'Name ', el('input', {name: 'table', size: '16'})), ' ',
    ...keyFields('pk', 'Partition key'), ' ', ...keyFields('sk', 'Sort key (optional)'), ' ',
    el('select', {name: 'billing'}, el('option', {value: 'PAY_PER_REQUEST'}, 'on demand'),
        el('option', {value: 'PROVISIONED'}, 'provisioned 5/5')), ' ',
    el('label', {}, 'LSI (optional) ', el('input', {name: 'lsi', size: '12'})), ' ',
    ...keyFields('lsiSk', 'on sort key'), ' ',
    el('select', {name: 'lsiProjection'}, ['ALL', 'KEYS_ONLY'].map((p) =>
        el('option', {value: p}, p))), ' ',
    streamSelect('')], 'Create', async (data) => {
    const definitions = [];
    const request = {TableName: data.get('table'), KeySchema: keysOf(data, definitions),
      AttributeDefinitions: definitions, BillingMode: data.get('billing')};
    if (request.BillingMode === 'PROVISIONED') {
      request.ProvisionedThroughput = {ReadCapacityUnits: 5, WriteCapacityUnits: 5};
    }
    const lsi = (data.get('lsi') || '').trim();
    if (lsi) {
      const sortKey = (data.get('lsiSkName') || '').trim();
      if (!definitions.some((d) => d.AttributeName === sortKey)) {
        definitions.push({AttributeName: sortKey, AttributeType: data.get('lsiSkType')});
      }
      request.LocalSecondaryIndexes = [{IndexName: lsi, KeySchema: [
        request.KeySchema.find((k) => k.KeyType === 'HASH'),
        {AttributeName: sortKey, KeyType: 'RANGE'}],
      Projection: {ProjectionType: data.get('lsiProjection')}}];
    }
    if (data.get('stream')) {
      request.StreamSpecification = {StreamEnabled: true, StreamViewType: data.get('stream')};
    }
    await api('CreateTable', request);
  });
}

/**
 * A table's settings: its capacity mode and provisioned throughput, its stream and its TTL
 * attribute, each changed only where the form differs from the table (UpdateTable,
 * UpdateTimeToLive), as DynamoDB refuses an update that changes nothing.
 */
function settingsForm(table, ttl) {
  const billing = table.BillingModeSummary ? table.BillingModeSummary.BillingMode
      : 'PROVISIONED';
  const throughput = table.ProvisionedThroughput || {};
  const stream = table.StreamSpecification && table.StreamSpecification.StreamEnabled
      ? table.StreamSpecification.StreamViewType : '';
  const ttlAttribute = ttl.TimeToLiveStatus === 'ENABLED' ? ttl.AttributeName : '';
  const option = (value, label, current) => el('option', value === current
      ? {value, selected: ''} : {value}, label);
  return actionForm('table-settings', [
    el('select', {name: 'billing'}, option('PAY_PER_REQUEST', 'on demand', billing),
        option('PROVISIONED', 'provisioned', billing)), ' ',
    el('label', {}, 'RCU ', el('input', {name: 'rcu', size: '5',
      value: String(throughput.ReadCapacityUnits || 5)})), ' ',
    el('label', {}, 'WCU ', el('input', {name: 'wcu', size: '5',
      value: String(throughput.WriteCapacityUnits || 5)})), ' ',
    streamSelect(stream), ' ',
    el('label', {}, 'TTL attribute ', el('input', {name: 'ttl', size: '12',
      value: ttlAttribute}))], 'Save settings', async (data) => {
    const name = table.TableName;
    const update = {TableName: name};
    const wanted = data.get('billing');
    const rcu = Number(data.get('rcu'));
    const wcu = Number(data.get('wcu'));
    if (wanted !== billing) update.BillingMode = wanted;
    if (wanted === 'PROVISIONED' && (wanted !== billing
        || rcu !== throughput.ReadCapacityUnits || wcu !== throughput.WriteCapacityUnits)) {
      update.ProvisionedThroughput = {ReadCapacityUnits: rcu, WriteCapacityUnits: wcu};
    }
    const view = data.get('stream');
    if (view !== stream) {
      if (stream && view) {
        // a stream's view type cannot change: the old stream is disabled first
        await api('UpdateTable', {TableName: name, StreamSpecification: {StreamEnabled: false}});
      }
      update.StreamSpecification = view ? {StreamEnabled: true, StreamViewType: view}
          : {StreamEnabled: false};
    }
    if (Object.keys(update).length > 1) {
      await api('UpdateTable', update);
    }
    const attribute = (data.get('ttl') || '').trim();
    if (attribute !== ttlAttribute) {
      if (ttlAttribute) {
        await api('UpdateTimeToLive', {TableName: name, TimeToLiveSpecification:
          {AttributeName: ttlAttribute, Enabled: false}});
      }
      if (attribute) {
        await api('UpdateTimeToLive', {TableName: name, TimeToLiveSpecification:
          {AttributeName: attribute, Enabled: true}});
      }
    }
  });
}

/** On a table's page: add a GSI (backfilled as DynamoDB does), remove one, delete the table. */
function tableForms(table) {
  const name = table.TableName;
  const gsis = table.GlobalSecondaryIndexes || [];
  return el('div', {},
      actionForm('add-gsi', [
        el('label', {}, 'Index name ', el('input', {name: 'index', size: '14'})), ' ',
        ...keyFields('pk', 'Partition key'), ' ', ...keyFields('sk', 'Sort key (optional)'), ' ',
        el('select', {name: 'projection'}, ['ALL', 'KEYS_ONLY'].map((p) =>
            el('option', {value: p}, p)))], 'Add GSI', async (data) => {
        const definitions = [];
        const create = {IndexName: data.get('index'), KeySchema: keysOf(data, definitions),
          Projection: {ProjectionType: data.get('projection')}};
        if (!table.BillingModeSummary
            || table.BillingModeSummary.BillingMode !== 'PAY_PER_REQUEST') {
          create.ProvisionedThroughput = {ReadCapacityUnits: 5, WriteCapacityUnits: 5};
        }
        await api('UpdateTable', {TableName: name, AttributeDefinitions: definitions,
          GlobalSecondaryIndexUpdates: [{Create: create}]});
      }),
      gsis.length === 0 ? null : actionForm('remove-gsi', [el('select', {name: 'index'},
          gsis.map((g) => el('option', {value: g.IndexName}, g.IndexName)))], 'Remove GSI',
      async (data) => api('UpdateTable', {TableName: name,
        GlobalSecondaryIndexUpdates: [{Delete: {IndexName: data.get('index')}}]})),
      actionForm('delete-table', [el('label', {}, 'Type the name to delete the table ',
          el('input', {name: 'confirm', size: '16'}))], 'Delete table', async (data) => {
        if (data.get('confirm') !== name) {
          throw new Error('Type ' + name + ' to delete it.');
        }
        await api('DeleteTable', {TableName: name});
        location.hash = '#/';
      }));
}

/** The table's indexes with their status: a GSI being added shows its backfill. */
function indexesSection(table) {
  const gsis = table.GlobalSecondaryIndexes || [];
  const lsis = table.LocalSecondaryIndexes || [];
  if (gsis.length + lsis.length === 0) return el('p', {class: 'muted'}, 'No secondary index.');
  const key = (schema) => schema.map((k) => k.AttributeName + ' (' + k.KeyType + ')').join(', ');
  return el('table', {id: 'indexes'},
      el('tr', {}, ['Index', 'Kind', 'Key', 'Projection', 'Status', 'Items'].map((h) =>
          el('th', {}, h))),
      gsis.map((g) => el('tr', {class: 'index'}, el('td', {}, g.IndexName), el('td', {}, 'GSI'),
          el('td', {}, key(g.KeySchema)), el('td', {}, g.Projection.ProjectionType),
          el('td', {class: 'index-status'}, g.IndexStatus + (g.Backfilling ? ' (backfilling)'
              : '')), el('td', {}, g.ItemCount))),
      lsis.map((l) => el('tr', {class: 'index'}, el('td', {}, l.IndexName), el('td', {}, 'LSI'),
          el('td', {}, key(l.KeySchema)), el('td', {}, l.Projection.ProjectionType),
          el('td', {class: 'index-status'}, 'ACTIVE'), el('td', {}, l.ItemCount))));
}

/**
 * One page of a table's items, whole item collections: Scan pages of {@code size} items until
 * the page holds that many, then on while the last collection goes on (up to five pages more,
 * so a collection larger than that is split). Answers the items and where the next page
 * starts, or null at the end.
 */
async function collectionsPage(name, hash, range, size, from) {
  const scan = (start) => api('Scan', Object.assign({TableName: name, Limit: size},
      start ? {ExclusiveStartKey: start} : {}));
  const items = [];
  let start = from;
  do {
    const page = await scan(start);
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start && items.length < size);
  const keyOf = (item) => Object.assign({[hash]: item[hash]}, range ? {[range]: item[range]} : {});
  while (start && items.length && items.length < 6 * size) {
    const last = JSON.stringify(items[items.length - 1][hash]);
    const page = await scan(start);
    const other = page.Items.findIndex((i) => JSON.stringify(i[hash]) !== last);
    if (other === -1) {
      items.push(...page.Items);
      start = page.LastEvaluatedKey;
    } else {
      items.push(...page.Items.slice(0, other));
      start = keyOf(items[items.length - 1]);
      break;
    }
  }
  return {items, next: start || null};
}

async function tableView(view, name, params) {
  const descending = params.get('order') === 'desc';
  const size = Number(params.get('size')) || COLLECTION_ITEMS;
  const from = params.get('from') ? JSON.parse(params.get('from')) : null;
  const table = (await api('DescribeTable', {TableName: name})).Table;
  const hash = table.KeySchema.find((k) => k.KeyType === 'HASH').AttributeName;
  const rangeKey = table.KeySchema.find((k) => k.KeyType === 'RANGE');
  const range = rangeKey ? rangeKey.AttributeName : null;
  const {items, next} = await collectionsPage(name, hash, range, size, from);
  const ttl = (await api('DescribeTimeToLive', {TableName: name})).TimeToLiveDescription;

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
      const key = {[hash]: item[hash]};
      if (range) key[range] = item[range];
      return el('tr', {class: 'item'},
          el('td', {}, el('a', {class: 'edit', href: '#/item/' + encodeURIComponent(name)
              + '?key=' + encodeURIComponent(JSON.stringify(key))}, 'edit')),
          range ? el('td', {class: 'value sort-key'}, badge(entity), ' ', show(item[range])) : null,
          others.map((a) => el('td', {class: 'value'}, item[a] ? show(item[a]) : '')));
    });
    sections.push(el('div', {class: 'collection'},
        el('div', {class: 'pk'}, hash + ' = ', badge(pkEntity), ' ',
            el('span', {class: 'value partition-key'}, show(c.pk)),
            el('span', {class: 'muted'}, ' · ' + c.items.length + ' item(s)')),
        el('table', {},
            el('tr', {}, el('th', {}, ''), range ? el('th', {}, range) : null,
                others.map((a) => el('th', {}, a))),
            rows)));
  }
  const link = (changes) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k); else p.set(k, v);
    }
    const query = p.toString();
    return '#/table/' + encodeURIComponent(name) + (query ? '?' + query : '');
  };
  const order = el('div', {class: 'toolbar'},
      el('a', {href: link({order: null, from: null})}, 'ascending'),
      el('a', {href: link({order: 'desc', from: null})}, 'descending'),
      el('span', {class: 'muted'}, items.length + ' item(s) in ' + collections.size
          + ' collection(s)' + (from || next ? ' on this page' : '')),
      from ? el('a', {id: 'first-page', href: link({from: null})}, 'first page') : null,
      next ? el('a', {id: 'next-page', href: link({from: JSON.stringify(next)})}, 'next page')
          : null);
  const legend = el('p', {class: 'legend'}, [...entities].sort().map(badge));
  const report = await partitionReport(name);
  remember(name, report);
  view.replaceChildren(el('h1', {}, name),
      el('p', {}, el('a', {href: '#/query/' + encodeURIComponent(name)}, 'Query this table'),
          ' · ', el('a', {href: '#/item/' + encodeURIComponent(name)}, 'New item')),
      el('h2', {}, 'Settings'), settingsForm(table, ttl),
      el('h2', {}, 'Indexes'), indexesSection(table), tableForms(table),
      el('h2', {}, 'Item collections'), order, legend,
      ...sections,
      el('h2', {}, 'Key design'), warningsSection(keyDesignWarnings(table, items, report)),
      el('h2', {}, 'Partitions'), el('div', {id: 'partitions-section'}, partitions(report)),
      el('h2', {}, 'Stream'), await streamSection(table));
  followPartitions(name);
}

// ---- the stream ----------------------------------------------------------------------------

const STREAM_RECORDS = 200;

/** The table's stream records, oldest first, read from every shard's start. */
async function streamRecords(arn) {
  const records = [];
  let start;
  const shards = [];
  do {
    const d = (await streamsApi('DescribeStream', start ? {StreamArn: arn,
      ExclusiveStartShardId: start} : {StreamArn: arn})).StreamDescription;
    shards.push(...d.Shards);
    start = d.LastEvaluatedShardId;
  } while (start);
  for (const shard of shards) {
    let iterator = (await streamsApi('GetShardIterator', {StreamArn: arn,
      ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON'})).ShardIterator;
    while (iterator && records.length < STREAM_RECORDS) {
      const page = await streamsApi('GetRecords', {ShardIterator: iterator, Limit: 100});
      records.push(...page.Records);
      if (page.Records.length === 0) break;
      iterator = page.NextShardIterator;
    }
  }
  records.sort((a, b) => compareNumbers(a.dynamodb.SequenceNumber, b.dynamodb.SequenceNumber));
  return records;
}

async function streamSection(table) {
  if (!table.LatestStreamArn || !(table.StreamSpecification
      && table.StreamSpecification.StreamEnabled)) {
    return el('p', {class: 'muted'}, 'No stream: enable one with UpdateTable.');
  }
  const records = await streamRecords(table.LatestStreamArn);
  const image = (i) => i ? show({M: i}) : '';
  return el('div', {},
      el('p', {class: 'muted'}, table.StreamSpecification.StreamViewType + ' · '
          + records.length + ' record(s)'),
      el('table', {id: 'stream'},
          el('tr', {}, ['Sequence number', 'Event', 'Keys', 'Old image', 'New image']
              .map((h) => el('th', {}, h))),
          records.map((r) => el('tr', {class: 'stream-record'},
              el('td', {class: 'value'}, r.dynamodb.SequenceNumber),
              el('td', {class: 'event'}, r.eventName),
              el('td', {class: 'value'}, image(r.dynamodb.Keys)),
              el('td', {class: 'value'}, image(r.dynamodb.OldImage)),
              el('td', {class: 'value'}, image(r.dynamodb.NewImage))))));
}

// ---- the key-design check ------------------------------------------------------------------

/**
 * The warnings the single-table design guides teach, from the items read and the partition
 * report: each names what it saw and the fix.
 */
function keyDesignWarnings(table, items, report) {
  const warnings = [];
  const hash = table.KeySchema.find((k) => k.KeyType === 'HASH').AttributeName;
  const rangeKey = table.KeySchema.find((k) => k.KeyType === 'RANGE');
  const partitionValues = new Set(items.map((i) => JSON.stringify(i[hash])));
  if (items.length >= 20 && partitionValues.size / items.length < 0.1) {
    warnings.push({id: 'few-partition-keys', text: 'The partition key ' + hash + ' has '
        + partitionValues.size + ' distinct value(s) over ' + items.length + ' items: their'
        + ' traffic lands on few partitions. Choose a key of many values (a user, an order),'
        + ' or add a shard suffix (#0 to #9) to spread writes.'});
  }
  const dates = items.filter((i) => i[hash] && i[hash].S
      && /^\d{4}-\d{2}-\d{2}/.test(i[hash].S)).length;
  if (items.length > 0 && dates / items.length > 0.5) {
    warnings.push({id: 'date-partition-key', text: 'The partition key ' + hash + ' holds'
        + ' dates: all of a day\'s writes go to one partition, which runs hot while the others'
        + ' idle. Key by the entity and put the date in the sort key, or shard the date'
        + ' (2026-12-05#3).'});
  }
  if (rangeKey) {
    const byPrefix = new Map();
    for (const item of items) {
      const v = item[rangeKey.AttributeName];
      const m = v && v.S ? /^(.*?)(\d+)$/.exec(v.S) : null;
      if (m) {
        if (!byPrefix.has(m[1])) byPrefix.set(m[1], new Map());
        byPrefix.get(m[1]).set(m[2].length, v.S);
      }
    }
    for (const [prefix, lengths] of byPrefix) {
      if (lengths.size > 1) {
        const examples = [...lengths.entries()].sort((a, b) => b[0] - a[0]).map((e) => e[1]);
        warnings.push({id: 'numeric-strings', text: 'Sort key values such as ' + examples[0]
            + ' and ' + examples[examples.length - 1] + ' hold numbers in strings of different'
            + ' lengths: they sort as text, so ' + examples[0] + ' comes before '
            + examples[examples.length - 1] + '. Zero-pad the numbers (' + prefix
            + '0002) or use time-ordered ids (ULIDs).'});
      }
    }
  }
  if (report) {
    let total = 0;
    const keys = [];
    for (const p of report.Partitions) {
      for (const k of p.HotKeys) {
        const units = k.ReadCapacityUnits + k.WriteCapacityUnits;
        total += units;
        keys.push({key: k.PartitionKey, units});
      }
      if (p.PeakReadCapacityUnitsPerSecond >= 2400 || p.PeakWriteCapacityUnitsPerSecond >= 800) {
        warnings.push({id: 'partition-ceiling', text: 'Partition ' + p.Index + ' peaked at '
            + p.PeakReadCapacityUnitsPerSecond.toFixed(0) + ' RCU/s and '
            + p.PeakWriteCapacityUnitsPerSecond.toFixed(0) + ' WCU/s, near the 3,000 RCU /'
            + ' 1,000 WCU a partition serves: spread its keys, or cache its reads.'});
      }
    }
    keys.sort((a, b) => b.units - a.units);
    if (keys.length > 0 && total >= 10 && keys[0].units / total > 0.5) {
      warnings.push({id: 'hot-key', text: 'The key ' + keys[0].key + ' took '
          + Math.round(100 * keys[0].units / total) + '% of the traffic recorded: one partition'
          + ' serves it all. Spread it with write sharding (' + keys[0].key + '#0 to #9), or'
          + ' cache its reads.'});
    }
  }
  return warnings;
}

function warningsSection(warnings) {
  return warnings.length === 0
      ? el('p', {class: 'muted', id: 'key-design'}, 'No warning for the items and traffic seen.')
      : el('ul', {id: 'key-design'},
          warnings.map((w) => el('li', {class: 'warning', 'data-warning': w.id}, w.text)));
}

async function partitionReport(name) {
  const path = '/stator/tables/' + encodeURIComponent(name) + '/partitions';
  const response = await fetch(path, {headers: await signed('GET', path, {}, '')});
  return response.ok ? response.json() : null;
}

const SVG = 'http://www.w3.org/2000/svg';
const REFRESH_MILLIS = 2000;
let refresher = null;
/** The table's consumption as read every REFRESH_MILLIS while its page is open, oldest first. */
let history = {table: null, samples: []};
const HISTORY_SAMPLES = 90;

/** Adds a report's totals to the open table's history, started again for another table. */
function remember(name, report) {
  if (history.table !== name) history = {table: name, samples: []};
  if (!report) return;
  const sum = (f) => report.Partitions.reduce((total, p) => total + f(p), 0);
  history.samples.push({
    read: sum((p) => p.ReadCapacityUnitsPerSecond),
    write: sum((p) => p.WriteCapacityUnitsPerSecond),
    throttles: report.ReadThrottles + report.WriteThrottles});
  if (history.samples.length > HISTORY_SAMPLES) history.samples.shift();
}

/**
 * The table's read and write units per second over the last three minutes, as two lines, one
 * point per report read while the page was open (the partition report keeps rates, not a past).
 */
function historyChart() {
  const width = 640;
  const height = 120;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('id', 'partition-history');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height + 20));
  const samples = history.samples;
  const max = Math.max(1, ...samples.flatMap((s) => [s.read, s.write]));
  const step = (width - 100) / Math.max(1, HISTORY_SAMPLES - 1);
  [['read', '#2f6fb0'], ['write', '#c0651a']].forEach(([kind, color], j) => {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', samples.map((s, i) => (90 + i * step).toFixed(1) + ','
        + (height - height * s[kind] / max).toFixed(1)).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', color);
    line.setAttribute('data-kind', kind);
    line.setAttribute('data-units', samples.map((s) => s[kind].toFixed(1)).join(' '));
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', '0');
    label.setAttribute('y', String(14 + 16 * j));
    label.setAttribute('font-size', '12');
    label.setAttribute('fill', color);
    label.textContent = kind + ' ' + (samples.length ? samples[samples.length - 1][kind]
        .toFixed(1) : '0') + '/s';
    svg.append(line, label);
  });
  const scale = document.createElementNS(SVG, 'text');
  scale.setAttribute('x', '0');
  scale.setAttribute('y', String(height + 16));
  scale.setAttribute('font-size', '11');
  scale.textContent = 'max ' + max.toFixed(1) + ' units/s over the last '
      + samples.length * REFRESH_MILLIS / 1000 + ' s';
  svg.append(scale);
  return svg;
}

/** Each partition's read and write units per second as bars, on one scale. */
function chart(report) {
  const width = 640;
  const rowHeight = 18;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('id', 'partition-chart');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(report.Partitions.length * rowHeight * 2 + 4));
  const max = Math.max(1, ...report.Partitions.flatMap((p) =>
    [p.ReadCapacityUnitsPerSecond, p.WriteCapacityUnitsPerSecond]));
  report.Partitions.forEach((p, i) => {
    [['read', p.ReadCapacityUnitsPerSecond, '#2f6fb0'],
      ['write', p.WriteCapacityUnitsPerSecond, '#c0651a']].forEach(([kind, units, color], j) => {
      const bar = document.createElementNS(SVG, 'rect');
      bar.setAttribute('x', '90');
      bar.setAttribute('y', String((2 * i + j) * rowHeight + 2));
      bar.setAttribute('height', String(rowHeight - 4));
      bar.setAttribute('width', String(Math.max(1, (width - 100) * units / max)));
      bar.setAttribute('fill', color);
      bar.setAttribute('data-partition', String(p.Index));
      bar.setAttribute('data-kind', kind);
      bar.setAttribute('data-units', units.toFixed(1));
      const label = document.createElementNS(SVG, 'text');
      label.setAttribute('x', '0');
      label.setAttribute('y', String((2 * i + j) * rowHeight + 14));
      label.setAttribute('font-size', '12');
      label.textContent = 'P' + p.Index + ' ' + kind + ' ' + units.toFixed(1);
      svg.append(bar, label);
    });
  });
  return svg;
}

/** Reads the partition report again every two seconds while the table's page is open. */
function followPartitions(name) {
  stopFollowing();
  refresher = setInterval(async () => {
    const section = document.getElementById('partitions-section');
    if (!section) {
      stopFollowing();
      return;
    }
    const report = await partitionReport(name);
    remember(name, report);
    section.replaceChildren(partitions(report));
  }, REFRESH_MILLIS);
}

function stopFollowing() {
  if (refresher !== null) {
    clearInterval(refresher);
    refresher = null;
  }
}

function partitions(report) {
  if (!report) {
    return el('p', {class: 'muted'}, 'No partition report.');
  }
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
          + (report.SplitsForHeat + report.SplitsForSize + report.SplitsForThroughput)
          + ' · read again every ' + REFRESH_MILLIS / 1000 + ' s'),
      chart(report),
      el('h3', {}, 'Over time'),
      historyChart(),
      el('table', {id: 'partitions'},
          el('tr', {}, ['Partition', 'Hash range', 'Bytes', 'RCU / WCU per s', 'Throttles',
            'Hottest keys'].map((h) => el('th', {}, h))),
          rows));
}

// ---- the item editor -----------------------------------------------------------------------

/**
 * An item as DynamoDB JSON, edited in place. A save is a PutItem that holds only if the item
 * still has every value it had when it was opened (or, for a new item, if none has its key):
 * someone else's change in between fails it instead of being overwritten.
 */
async function itemView(view, name) {
  const table = (await api('DescribeTable', {TableName: name})).Table;
  const keyNames = table.KeySchema.map((k) => k.AttributeName);
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  const key = params.get('key') ? JSON.parse(params.get('key')) : null;
  let original = null;
  if (key) {
    const got = await api('GetItem', {TableName: name, Key: key, ConsistentRead: true});
    original = got.Item || null;
    if (!original) throw new Error('No item with the key ' + JSON.stringify(key));
  }
  const template = original || Object.fromEntries(keyNames.map((k) => [k, {[table
      .AttributeDefinitions.find((a) => a.AttributeName === k).AttributeType]: ''}]));
  const text = el('textarea', {id: 'item-json', rows: '18', cols: '90', spellcheck: 'false'});
  text.value = JSON.stringify(template, null, 2);
  const status = el('p', {id: 'item-status'});
  const save = el('button', {id: 'item-save', type: 'button'}, original ? 'Save' : 'Create');
  save.addEventListener('click', async () => {
    status.className = '';
    status.textContent = 'Saving…';
    document.body.dataset.saved = '';
    try {
      const item = parseItem(text.value, keyNames);
      if (original) {
        for (const k of keyNames) {
          if (JSON.stringify(item[k]) !== JSON.stringify(original[k])) {
            throw new Error('The key (' + keyNames.join(', ') + ') cannot change: open a new'
                + ' item to create one with another key.');
          }
        }
      }
      await api('PutItem', Object.assign({TableName: name, Item: item}, unchanged(original,
          keyNames)));
      original = item;
      status.textContent = 'Saved.';
      document.body.dataset.saved = 'ok';
    } catch (e) {
      status.className = 'error';
      status.textContent = e.message.startsWith('ConditionalCheckFailedException')
          ? 'Not saved: the item changed since it was opened (or, for a new item, one with its'
              + ' key exists). Reload to see it.'
          : 'Not saved: ' + e.message;
      document.body.dataset.saved = 'error';
    }
  });
  view.replaceChildren(el('h1', {}, (original ? 'Item of ' : 'New item in ') + name),
      el('p', {class: 'muted'}, 'DynamoDB JSON: every value typed, as {"S": "text"},'
          + ' {"N": "42"}, {"BOOL": true}, {"L": [...]}, {"M": {...}}.'),
      text, el('p', {}, save), status);
}

/** The editor's text as an item, or an error that says where it is wrong. */
function parseItem(text, keyNames) {
  let item;
  try {
    item = JSON.parse(text);
  } catch (e) {
    throw new Error('the text is not JSON: ' + e.message);
  }
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new Error('an item is a JSON object of attributes');
  }
  const types = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];
  const check = (value, path) => {
    if (typeof value !== 'object' || value === null || Object.keys(value).length !== 1
        || !types.includes(Object.keys(value)[0])) {
      throw new Error(path + ' is not a typed value such as {"S": "text"} or {"N": "1"}');
    }
    const [type, v] = Object.entries(value)[0];
    if (type === 'L') v.forEach((x, i) => check(x, path + '[' + i + ']'));
    if (type === 'M') Object.entries(v).forEach(([k, x]) => check(x, path + '.' + k));
  };
  for (const [name, value] of Object.entries(item)) check(value, name);
  for (const k of keyNames) {
    if (!item[k]) throw new Error('the key attribute ' + k + ' is missing');
  }
  return item;
}

/** The condition of a save: every value as opened, or no item with the key yet. */
function unchanged(original, keyNames) {
  const names = {};
  const values = {};
  const terms = [];
  if (!original) {
    names['#k'] = keyNames[0];
    return {ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: names};
  }
  Object.entries(original).forEach(([attribute, value], i) => {
    names['#a' + i] = attribute;
    values[':v' + i] = value;
    terms.push('#a' + i + ' = :v' + i);
  });
  return {ConditionExpression: terms.join(' AND '), ExpressionAttributeNames: names,
    ExpressionAttributeValues: values};
}

// ---- the PartiQL editor --------------------------------------------------------------------

/** A statement run with ExecuteStatement, its pages followed, its items shown as a table. */
async function partiqlView(view) {
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  const text = el('textarea', {id: 'partiql-statement', rows: '4', cols: '90',
    spellcheck: 'false'});
  text.value = params.get('statement') || 'SELECT * FROM "Table" WHERE pk = \'value\'';
  const run = el('button', {id: 'partiql-run', type: 'button'}, 'Run');
  const result = el('div', {id: 'partiql-result'});
  run.addEventListener('click', async () => {
    document.body.dataset.done = '';
    result.replaceChildren(el('p', {class: 'muted'}, 'Running…'));
    try {
      const items = [];
      let next;
      let pages = 0;
      do {
        const page = await api('ExecuteStatement', next ? {Statement: text.value,
          NextToken: next} : {Statement: text.value});
        items.push(...(page.Items || []));
        next = page.NextToken;
        pages++;
      } while (next && items.length < COLLECTION_ITEMS);
      const columns = [...new Set(items.flatMap((i) => Object.keys(i)))].sort();
      result.replaceChildren(
          el('p', {id: 'partiql-counts'}, items.length + ' item(s) in ' + pages + ' page(s)'
              + (next ? ', more follow' : '')),
          el('table', {}, el('tr', {}, columns.map((c) => el('th', {}, c))),
              items.map((item) => el('tr', {class: 'result'}, columns.map((c) =>
                  el('td', {class: 'value'}, item[c] ? show(item[c]) : ''))))));
      document.body.dataset.done = 'ok';
    } catch (e) {
      result.replaceChildren(el('p', {class: 'error'}, e.message));
      document.body.dataset.done = 'error';
    }
  });
  view.replaceChildren(el('h1', {}, 'PartiQL'),
      el('p', {class: 'muted'}, 'SELECT, INSERT, UPDATE and DELETE, as ExecuteStatement runs'
          + ' them.'), text, el('p', {}, run), result);
}

// ---- the query builder ---------------------------------------------------------------------

const SORT_CONDITIONS = ['=', '<', '<=', '>', '>=', 'BETWEEN', 'begins_with'];

/** The Query a builder's state stands for, as DynamoDB's JSON request. */
function queryRequest(table, state) {
  const source = state.index
      ? [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])]
          .find((i) => i.IndexName === state.index)
      : table;
  if (!source) throw new Error('No index ' + state.index + ' on ' + table.TableName);
  const typeOf = (name) => table.AttributeDefinitions.find((a) => a.AttributeName === name)
      .AttributeType;
  const hash = source.KeySchema.find((k) => k.KeyType === 'HASH').AttributeName;
  const rangeKey = source.KeySchema.find((k) => k.KeyType === 'RANGE');
  const value = (name, text) => ({[typeOf(name)]: text});
  const request = {TableName: table.TableName};
  if (state.index) request.IndexName = state.index;
  let condition = '#pk = :pk';
  request.ExpressionAttributeNames = {'#pk': hash};
  request.ExpressionAttributeValues = {':pk': value(hash, state.pk)};
  if (rangeKey && state.op && state.sk !== undefined && state.sk !== '') {
    const range = rangeKey.AttributeName;
    request.ExpressionAttributeNames['#sk'] = range;
    request.ExpressionAttributeValues[':sk'] = value(range, state.sk);
    if (state.op === 'BETWEEN') {
      request.ExpressionAttributeValues[':sk2'] = value(range, state.sk2 || '');
      condition += ' AND #sk BETWEEN :sk AND :sk2';
    } else if (state.op === 'begins_with') {
      condition += ' AND begins_with(#sk, :sk)';
    } else {
      condition += ' AND #sk ' + state.op + ' :sk';
    }
  }
  request.KeyConditionExpression = condition;
  if (state.desc) request.ScanIndexForward = false;
  if (state.limit) request.Limit = Number(state.limit);
  if (state.projection) request.ProjectionExpression = state.projection;
  request.ReturnConsumedCapacity = 'TOTAL';
  return request;
}

/** The same request as an AWS CLI command a user can paste into a shell. */
function cliCommand(request) {
  const quote = (text) => "'" + text.replace(/'/g, "'\\''") + "'";
  const parts = ['aws dynamodb query --endpoint-url ' + location.origin,
    '--table-name ' + quote(request.TableName)];
  if (request.IndexName) parts.push('--index-name ' + quote(request.IndexName));
  parts.push('--key-condition-expression ' + quote(request.KeyConditionExpression));
  parts.push('--expression-attribute-names ' + quote(JSON.stringify(
      request.ExpressionAttributeNames)));
  parts.push('--expression-attribute-values ' + quote(JSON.stringify(
      request.ExpressionAttributeValues)));
  if (request.ScanIndexForward === false) parts.push('--no-scan-index-forward');
  if (request.Limit) parts.push('--limit ' + request.Limit);
  if (request.ProjectionExpression) {
    parts.push('--projection-expression ' + quote(request.ProjectionExpression));
  }
  parts.push('--return-consumed-capacity TOTAL');
  return parts.join(' \\\n    ');
}

/** A request's attribute values as Java SDK v2 code: AttributeValue.fromS("..."), and so on. */
function javaValue(value) {
  const [type, v] = Object.entries(value)[0];
  if (type === 'B') {
    return 'AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode('
        + JSON.stringify(v) + ')))';
  }
  return 'AttributeValue.from' + type + '(' + JSON.stringify(v) + ')';
}

/** The same request as a Java class using the AWS SDK for Java v2, to copy into a project. */
function javaSnippet(request) {
  const entries = (map, render) => Object.entries(map).map(([k, v]) =>
      JSON.stringify(k) + ', ' + render(v)).join(',\n                ');
  const calls = ['.tableName(' + JSON.stringify(request.TableName) + ')'];
  if (request.IndexName) calls.push('.indexName(' + JSON.stringify(request.IndexName) + ')');
  calls.push('.keyConditionExpression(' + JSON.stringify(request.KeyConditionExpression) + ')');
  calls.push('.expressionAttributeNames(Map.of(\n                '
      + entries(request.ExpressionAttributeNames, (v) => JSON.stringify(v)) + '))');
  calls.push('.expressionAttributeValues(Map.of(\n                '
      + entries(request.ExpressionAttributeValues, javaValue) + '))');
  if (request.ScanIndexForward === false) calls.push('.scanIndexForward(false)');
  if (request.Limit) calls.push('.limit(' + request.Limit + ')');
  if (request.ProjectionExpression) {
    calls.push('.projectionExpression(' + JSON.stringify(request.ProjectionExpression) + ')');
  }
  calls.push('.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)');
  const body = calls.map((c) => '          ' + c);
  body[body.length - 1] += ');';
  return [
    'import java.net.URI;',
    'import java.util.Base64;',
    'import java.util.Map;',
    'import software.amazon.awssdk.core.SdkBytes;',
    'import software.amazon.awssdk.regions.Region;',
    'import software.amazon.awssdk.services.dynamodb.DynamoDbClient;',
    'import software.amazon.awssdk.services.dynamodb.model.AttributeValue;',
    'import software.amazon.awssdk.services.dynamodb.model.QueryResponse;',
    'import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;',
    '',
    'public class QueryExample {',
    '  public static void main(String[] args) {',
    '    try (DynamoDbClient dynamo = DynamoDbClient.builder()',
    '        .endpointOverride(URI.create(' + JSON.stringify(location.origin) + '))',
    '        .region(Region.US_EAST_1)',
    '        .build()) {',
    '      QueryResponse response = dynamo.query(q -> q',
    ...body,
    '      response.items().forEach(System.out::println);',
    '    }',
    '  }',
    '}',
  ].join('\n');
}

/** The same request with boto3, the AWS SDK for Python. */
function pythonSnippet(request) {
  const value = (v) => {
    const [type, text] = Object.entries(v)[0];
    return type === 'B' ? '{"B": base64.b64decode(' + JSON.stringify(text) + ')}'
        : JSON.stringify(v);
  };
  const dict = (map, render) => '{' + Object.entries(map).map(([k, v]) =>
      JSON.stringify(k) + ': ' + render(v)).join(', ') + '}';
  const args = ['TableName=' + JSON.stringify(request.TableName)];
  if (request.IndexName) args.push('IndexName=' + JSON.stringify(request.IndexName));
  args.push('KeyConditionExpression=' + JSON.stringify(request.KeyConditionExpression));
  args.push('ExpressionAttributeNames='
      + dict(request.ExpressionAttributeNames, (v) => JSON.stringify(v)));
  args.push('ExpressionAttributeValues=' + dict(request.ExpressionAttributeValues, value));
  if (request.ScanIndexForward === false) args.push('ScanIndexForward=False');
  if (request.Limit) args.push('Limit=' + request.Limit);
  if (request.ProjectionExpression) {
    args.push('ProjectionExpression=' + JSON.stringify(request.ProjectionExpression));
  }
  args.push('ReturnConsumedCapacity="TOTAL"');
  const binary = Object.values(request.ExpressionAttributeValues).some((v) => 'B' in v);
  return [
    ...(binary ? ['import base64', ''] : []),
    'import boto3',
    '',
    'dynamodb = boto3.client("dynamodb", endpoint_url=' + JSON.stringify(location.origin)
        + ', region_name="us-east-1")',
    'response = dynamodb.query(',
    ...args.map((a) => '    ' + a + ','),
    ')',
    'for item in response["Items"]:',
    '    print(item)',
  ].join('\n');
}

function queryState() {
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  return Object.fromEntries(params.entries());
}

async function queryView(view, name) {
  const table = (await api('DescribeTable', {TableName: name})).Table;
  const state = queryState();
  const indexes = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes
      || [])].map((i) => i.IndexName);
  const input = (key, attributes) => el('input', Object.assign({name: key, value: state[key]
      || ''}, attributes || {}));
  const form = el('form', {id: 'query-form'},
      el('label', {}, 'Index ', el('select', {name: 'index'},
          el('option', {value: ''}, '(table)'),
          indexes.map((i) => el('option', i === state.index ? {value: i, selected: ''}
              : {value: i}, i)))), ' ',
      el('label', {}, 'Partition key = ', input('pk')), ' ',
      el('label', {}, 'Sort key ', el('select', {name: 'op'}, el('option', {value: ''}, '—'),
          SORT_CONDITIONS.map((o) => el('option', o === state.op ? {value: o, selected: ''}
              : {value: o}, o)))), ' ',
      input('sk', {placeholder: 'value'}), ' ', input('sk2', {placeholder: 'and (BETWEEN)'}),
      ' ', el('label', {}, el('input', state.desc ? {type: 'checkbox', name: 'desc',
          checked: ''} : {type: 'checkbox', name: 'desc'}), ' descending'), ' ',
      el('label', {}, 'Limit ', input('limit', {size: '4'})), ' ',
      el('label', {}, 'Projection ', input('projection')), ' ',
      el('button', {type: 'submit'}, 'Query'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form).entries()) {
      if (v) params.set(k, k === 'desc' ? '1' : v);
    }
    location.hash = '#/query/' + encodeURIComponent(name) + '?' + params.toString();
  });
  const parts = [el('h1', {}, 'Query ' + name), form];
  if (state.pk) {
    const request = queryRequest(table, state);
    const result = await api('Query', request);
    const columns = [...new Set(result.Items.flatMap((i) => Object.keys(i)))].sort();
    parts.push(
        el('h2', {}, 'Request'),
        el('pre', {id: 'query-cli', class: 'value'}, cliCommand(request)),
        el('pre', {id: 'query-json', class: 'value'}, JSON.stringify(request, null, 2)),
        el('h3', {}, 'Java (AWS SDK for Java v2)'),
        el('pre', {id: 'query-java', class: 'value'}, javaSnippet(request)),
        el('h3', {}, 'Python (boto3)'),
        el('pre', {id: 'query-python', class: 'value'}, pythonSnippet(request)),
        el('h2', {}, 'Result'),
        el('p', {id: 'query-counts'}, 'Count ' + result.Count + ' · ScannedCount '
            + result.ScannedCount + ' · consumed ' + (result.ConsumedCapacity
                ? result.ConsumedCapacity.CapacityUnits : 0) + ' RCU'
            + (result.LastEvaluatedKey ? ' · more follow (LastEvaluatedKey '
                + JSON.stringify(result.LastEvaluatedKey) + ')' : '')),
        el('table', {id: 'query-items'},
            el('tr', {}, columns.map((c) => el('th', {}, c))),
            result.Items.map((item) => el('tr', {class: 'result'}, columns.map((c) =>
                el('td', {class: 'value'}, item[c] ? show(item[c]) : ''))))));
  }
  view.replaceChildren(...parts);
}

async function route() {
  stopFollowing();
  const signIn = document.getElementById('sign-in');
  if (signIn && !signIn.firstChild) signIn.append(credentialsForm());
  const view = document.getElementById('view');
  const crumbs = document.getElementById('crumbs');
  const m = /^#\/table\/([^?]+)(?:\?(.*))?$/.exec(location.hash);
  const q = /^#\/query\/([^?]+)/.exec(location.hash);
  const it = /^#\/item\/([^?]+)/.exec(location.hash);
  try {
    if (location.hash.startsWith('#/partiql')) {
      crumbs.replaceChildren(el('a', {href: '#/'}, 'Tables'), ' / PartiQL');
      await partiqlView(view);
    } else if (it) {
      const name = decodeURIComponent(it[1]);
      crumbs.replaceChildren(el('a', {href: '#/'}, 'Tables'), ' / ',
          el('a', {href: '#/table/' + it[1]}, name), ' / item');
      await itemView(view, name);
    } else if (q) {
      const name = decodeURIComponent(q[1]);
      crumbs.replaceChildren(el('a', {href: '#/'}, 'Tables'), ' / ',
          el('a', {href: '#/table/' + q[1]}, name), ' / query');
      await queryView(view, name);
    } else if (m) {
      const name = decodeURIComponent(m[1]);
      crumbs.replaceChildren(el('a', {href: '#/'}, 'Tables'), ' / ', name);
      await tableView(view, name, new URLSearchParams(m[2] || ''));
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
