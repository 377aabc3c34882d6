-- BatchWriteItem of 25 ~1 KB items over random preloaded keys (distinct within the batch).
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")
DEFAULT_EXPECT = '"UnprocessedItems":{}'

function next_request()
  local seen, puts = {}, {}
  while #puts < 25 do
    local pk, sk = random_key()
    local id = pk .. "#" .. sk
    if not seen[id] then
      seen[id] = true
      puts[#puts + 1] = '{"PutRequest":{"Item":' .. item_json(pk, sk, math.random(0, 1000000)) .. '}}'
    end
  end
  return "BatchWriteItem", string.format('{"RequestItems":{"%s":[%s]}}', TABLE,
    table.concat(puts, ","))
end
