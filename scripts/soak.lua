-- wrk script of scripts/soak: a fixed mix of resolves (GET and POST), locates, resource reads, emits and polls.
--
-- Arguments (after `--`): requests per thread, one subscription id per thread (comma-separated), and a folder.
-- Run with as many connections as threads (-t N -c N): each thread then has one connection, so every response
-- follows the request this script just made, and its status is checked against that request's expected status.
-- Each thread stops after its share of requests and writes `done-<thread>` into the folder: wrk itself runs for
-- its whole -d duration, so scripts/soak stops it with SIGINT once every thread is done. done() prints one
-- `soak:` line that scripts/soak parses.

local threads = {}

function setup(thread)
    thread:set("id", #threads + 1)
    table.insert(threads, thread)
end

local json = { ["Content-Type"] = "application/json" }

-- name, method, path, body, expected status; `poll` is built per request (its cursor moves).
local mix = {
    { "resolve-get", "GET", "/v1/resolve?url=%2Fusers%2F42%3Ftab%3Dposts", nil, 200 },
    { "resolve-get-scheme", "GET", "/v1/resolve?url=myapp%3A%2F%2Fusers%2F7%2Fposts%2F3", nil, 200 },
    { "resolve-post-guard", "POST", "/v1/resolve",
        '{"url": "/users/42/settings", "context": {"loggedIn": true}}', 200 },
    { "resolve-post-redirect", "POST", "/v1/resolve",
        '{"url": "/users/42/settings", "context": {"loggedIn": false}}', 200 },
    { "resolve-post-name", "POST", "/v1/resolve",
        '{"name": "userPost", "params": {"id": "9", "postId": "1"}, "query": {"ref": "soak"}}', 200 },
    { "resolve-post-legacy", "POST", "/v1/resolve", '{"url": "/u/42", "current": "/users/42"}', 200 },
    { "resolve-no-match", "GET", "/v1/resolve?url=%2Fnowhere%2Fat%2Fall", nil, 404 },
    { "resolve-intercepted", "POST", "/v1/resolve", '{"url": "/users/0"}', 403 },
    { "resolve-api-route", "POST", "/v1/resolve", '{"url": "https://example.com/promo/SPRING?x=1"}', 200 },
    { "locate", "POST", "/v1/locate", '{"name": "userPost", "params": {"id": "42", "postId": "7"}}', 200 },
    { "locate-help", "POST", "/v1/locate", '{"name": "help", "params": {"topic": "a/b c"}}', 200 },
    { "resource-loc", "GET", "/v1/resources?loc=%2Fflags%2Fios", nil, 200 },
    { "resource-name", "GET", "/v1/resources?name=flags&platform=android", nil, 200 },
    { "resource-value", "GET", "/v1/resources?loc=%2Fconfig%2Fapp", nil, 200 },
    { "emit", "POST", "/v1/events/emit", '{"loc": "/soak/1?x=1", "extra": {"n": 1}}', 200 },
    { "emit-name", "POST", "/v1/events/emit", '{"name": "soakTick", "params": {"n": "2"}}', 200 },
    { "poll", "GET", nil, nil, 200 },
    { "resolve-get", "GET", "/v1/resolve?url=%2Fusers%2F42%3Ftab%3Dposts", nil, 200 },
    { "resource-loc", "GET", "/v1/resources?loc=%2Fflags%2Fios", nil, 200 },
    { "poll", "GET", nil, nil, 200 },
}

local prepared = {}
local count = 0
local limit = 0
local subscription = ""
local cursor = "0"
local pending = 0
local marker = ""

-- Results, read by done() through thread:get.
completed = 0
errors = 0
failures = ""
byName = {}

function init(args)
    limit = tonumber(args[1])
    local ids = {}
    for subscriptionId in string.gmatch(args[2], "[^,]+") do table.insert(ids, subscriptionId) end
    subscription = ids[id]
    marker = args[3] .. "/done-" .. id
    for index, entry in ipairs(mix) do
        if entry[3] then
            prepared[index] = wrk.format(entry[2], entry[3], entry[4] and json or nil, entry[4])
        end
        byName[entry[1]] = 0
    end
end

function request()
    count = count + 1
    pending = (count - 1) % #mix + 1
    local ready = prepared[pending]
    if ready then return ready end
    return wrk.format("GET", "/v1/events/subscriptions/" .. subscription .. "?after=" .. cursor .. "&wait=0")
end

function response(status, headers, body)
    local entry = mix[pending]
    completed = completed + 1
    byName[entry[1]] = byName[entry[1]] + 1
    if status ~= entry[5] then
        errors = errors + 1
        if errors <= 5 then
            failures = failures .. string.format("\n  %s: %d %s", entry[1], status, string.sub(body or "", 1, 200))
        end
    elseif entry[1] == "poll" then
        cursor = string.match(body, '"cursor":(%d+)') or cursor
    end
    if completed == limit then
        wrk.thread:stop()
        local file = io.open(marker, "w")
        file:write(completed)
        file:close()
    end
end

function done(summary, latency, requests)
    local total, failed, text = 0, 0, ""
    for _, thread in ipairs(threads) do
        total = total + thread:get("completed")
        failed = failed + thread:get("errors")
        text = text .. thread:get("failures")
    end
    local socket = summary.errors
    io.write(string.format(
        "soak: requests=%d errors=%d socket_errors=%d duration_s=%.1f rps=%.0f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
        total, failed, socket.connect + socket.read + socket.write + socket.timeout,
        summary.duration / 1e6, total / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
    if text ~= "" then io.write("soak: first failures:" .. text .. "\n") end
end
