-- wrk script for GET /v1/resources?loc=… over the resources scripts/bench-run seeds (static values at flag
-- patterns and one computed value), with a few misses.
local locs = {
  "/flags/ios", "/flags/android", "/flags/web", "/config/app/ios/1.2.3", "/config/app/android/4.5.6",
  "/greeting/de", "/greeting/en", "/flags/ios%3Fbeta%3D1", "/missing/thing", "/flags",
}
local counter = 0

init = function(args)
  counter = math.random(#locs)
end

request = function()
  counter = counter % #locs + 1
  return wrk.format("GET", "/v1/resources?loc=" .. locs[counter])
end
