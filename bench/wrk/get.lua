-- GetItem with ConsistentRead of a random preloaded item.
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")
DEFAULT_EXPECT = '"Item"'

function next_request()
  local pk, sk = random_key()
  return "GetItem", string.format('{"TableName":"%s","Key":%s,"ConsistentRead":true}',
    TABLE, key_json(pk, sk))
end
