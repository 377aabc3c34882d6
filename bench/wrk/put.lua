-- PutItem of a ~1 KB item over a random preloaded key (the table keeps its size).
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")

function next_request()
  local pk, sk = random_key()
  return "PutItem", string.format('{"TableName":"%s","Item":%s}',
    TABLE, item_json(pk, sk, math.random(0, 1000000)))
end
