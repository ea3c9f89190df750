// The API client of the console: same-origin fetches with the bearer token kept in sessionStorage, errors as
// ApiError with the contract's code, message and details, and a 401 turned into one sign-in prompt.

const tokenKey = "linkserver.token";

/** An error answer of the API (API.md §1), or a network failure (status 0, code "network"). */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const auth = {
  get token() {
    return sessionStorage.getItem(tokenKey);
  },
  set token(value) {
    if (value) sessionStorage.setItem(tokenKey, value);
    else sessionStorage.removeItem(tokenKey);
    document.dispatchEvent(new Event("console:token"));
  },
  /** Asks for a token; set by app.js. Resolves to the token, or null when the person cancels. */
  ask: async () => null,
};

let pendingAsk = null;

/** One prompt for every request that got a 401 at the same time. */
function askOnce(reason) {
  if (!pendingAsk) pendingAsk = auth.ask(reason).finally(() => (pendingAsk = null));
  return pendingAsk;
}

/**
 * Calls the API. `body` is sent as JSON. Returns {status, headers, json, text, blob}. A 401 asks for a token
 * (once) and retries; a cancelled prompt or any other error status throws an ApiError.
 */
export async function request(method, path, { body, headers = {}, signal, as = "json", retryOn401 = true } = {}) {
  for (let attempt = 0; ; attempt++) {
    const sent = { ...headers };
    if (auth.token) sent["Authorization"] = `Bearer ${auth.token}`;
    if (body !== undefined) sent["Content-Type"] = "application/json";
    if (as === "json") sent["Accept"] = "application/json";
    let response;
    try {
      response = await fetch(path, {
        method, headers: sent, signal, cache: "no-store",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError(0, "network", `The server could not be reached (${error.message}).`, {});
    }
    if (response.status === 401 && retryOn401 && attempt < 3) {
      // The answer says which token the request needs (`details.needs`): a change refused with a token may be
      // refused for a read token, which does not write, and is said so. (A POST may be a read: a subscribe to
      // existing types, a resolve.)
      const needs = await response.clone().json().then((answer) => answer?.error?.details?.needs, () => undefined);
      const needsAdmin = needs ? needs === "admin" : method !== "GET" && method !== "HEAD";
      const reason = !auth.token
        ? "This request needs a token."
        : needsAdmin
          ? "The server refused that token for this change, which needs the admin token (a read token only looks)."
          : "The server refused that token. Try again.";
      const refused = auth.token;
      const token = await askOnce(reason);
      if (token) continue;
      // A read refused with a token: it is neither of the service's tokens (both read), so it is not kept as a
      // sign-in. (A change refused may be a read token's: kept.)
      if (refused && !needsAdmin && auth.token === refused) auth.token = null;
    }
    if (!response.ok && response.status !== 304) {
      let envelope = null;
      try {
        envelope = await response.json();
      } catch {
        // not JSON: a proxy's page; described by the status alone
      }
      const error = envelope && envelope.error;
      throw new ApiError(
        response.status, error?.code || `http_${response.status}`,
        error?.message || `The server answered ${response.status} ${response.statusText}.`, error?.details || {});
    }
    const result = { status: response.status, headers: response.headers };
    if (response.status === 204) return result;
    if (as === "blob") result.blob = await response.blob();
    else if (as === "text") result.text = await response.text();
    else result.json = await response.json();
    return result;
  }
}

export const get = (path, options) => request("GET", path, options).then((r) => r.json);
export const post = (path, body, options) => request("POST", path, { ...options, body }).then((r) => r.json);

/** A query string from an object, skipping empty values (encodeURIComponent: the server reads `+` as a plus). */
export function query(values) {
  const parts = [];
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== "") {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length ? `?${parts.join("&")}` : "";
}
