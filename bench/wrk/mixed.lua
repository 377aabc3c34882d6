-- Half GetItem (ConsistentRead), half PutItem, random keys.
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")

function next_request()
  local pk, sk = random_key()
  if math.random() < 0.5 then
    return "GetItem", string.format('{"TableName":"%s","Key":%s,"ConsistentRead":true}',
      TABLE, key_json(pk, sk))
  end
  return "PutItem", string.format('{"TableName":"%s","Item":%s}',
    TABLE, item_json(pk, sk, math.random(0, 1000000)))
end
