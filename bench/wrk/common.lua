-- Shared by the workload scripts: the request headers, the data model of the preloaded table and
-- the response check. Each workload script loads this file and defines body() (and optionally the
-- operation per request).
--
-- The table (see ../preload.js): partition key "pk" (S, "p0000".."p0999"), sort key "sk"
-- (N, 0..9), a ~1 KB "payload", a counter "n", and "gpk"/"gsk" for the GSI "bygroup".
--
-- Arguments after "--" on the wrk command line:
--   expect=TEXT  a 200 answer must also contain TEXT (e.g. "Item"); "expect=" checks status only.
--   partitions=N the number of partitions to draw keys from (default PARTITIONS; bench/scale.sh
--                loads tables of other sizes)

PARTITIONS = 1000
ITEMS_PER_PARTITION = 10
TABLE = "bench"
PAYLOAD = string.rep("0123456789abcdef", 60) -- 960 bytes; with the rest the item is ~1 KB

-- Nothing is signed: both servers accept any SigV4-shaped credentials, and a load test should not
-- spend the generator's CPU on HMACs. DynamoDB's front end insists on the shape, so send it.
local AUTH = "AWS4-HMAC-SHA256 Credential=bench/20240101/us-east-1/dynamodb/aws4_request, "
  .. "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
  .. "Signature=0000000000000000000000000000000000000000000000000000000000000000"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
wrk.headers["Authorization"] = AUTH
wrk.headers["X-Amz-Date"] = "20240101T000000Z"

function target(operation)
  return "DynamoDB_20120810." .. operation
end

function random_key()
  return string.format("p%04d", math.random(0, PARTITIONS - 1)), math.random(0, ITEMS_PER_PARTITION - 1)
end

function key_json(pk, sk)
  return string.format('{"pk":{"S":"%s"},"sk":{"N":"%d"}}', pk, sk)
end

function item_json(pk, sk, n)
  local p = tonumber(string.sub(pk, 2))
  return string.format(
    '{"pk":{"S":"%s"},"sk":{"N":"%d"},"n":{"N":"%d"},"gpk":{"S":"g%03d"},"gsk":{"S":"%s#%d"},'
      .. '"payload":{"S":"%s"}}',
    pk, sk, n, p % 100, pk, sk, PAYLOAD)
end

-- The response check. wrk runs one Lua state per thread; done() collects the counters.
local threads = {}
local expect = nil

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bad = 0
  shown = 0
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 100000)
  expect = DEFAULT_EXPECT
  for _, a in ipairs(args) do
    local v = a:match("^expect=(.*)$")
    if v then expect = (v ~= "" and v or nil) end
    local n = a:match("^partitions=(%d+)$")
    if n then PARTITIONS = tonumber(n) end
  end
end

function response(status, headers, body)
  if status ~= 200 or (expect and not string.find(body, expect, 1, true)) then
    bad = bad + 1
    if shown < 3 then
      shown = shown + 1
      io.stderr:write(string.format("bad answer %d: %s\n", status, string.sub(body or "", 1, 300)))
    end
  end
end

function request()
  local operation, body = next_request()
  wrk.headers["X-Amz-Target"] = target(operation)
  return wrk.format(nil, nil, nil, body)
end

-- One machine-readable line; run.sh parses it.
function done(summary, latency, requests)
  local errors = 0
  for _, t in ipairs(threads) do errors = errors + (t:get("bad") or 0) end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d mean_us=%.1f bad=%d "
      .. "socket_errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.mean, errors, e.connect + e.read + e.write + e.timeout))
end
