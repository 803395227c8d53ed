"""An LTI 1.3 platform for the tests, on a real loopback port, with real RSA keys: what an LMS
does in a launch and a grade, as the spec says (IMS LTI 1.3 core, Security Framework, AGS 2).

- It serves its JWKS (``/jwks``), which the tool fetches to check the launch's signature.
- ``launch()`` plays the learner's browser and the LMS: the OIDC login initiation at the tool,
  the authorisation answer (an id_token signed RS256 with the platform's key, the nonce and
  state the tool gave), posted to the tool's redirect URI.
- ``/token`` gives an access token only for a client assertion signed with the tool's key
  (fetched from the tool's JWKS) for this client id and this token URL.
- ``/lineitems/<n>/scores`` takes a score only with that access token, and keeps it.
- ``/memberships`` (Names and Role Provisioning Services) lists ``members`` to that access token
  only, ``page_size`` at a time with a ``Link: <...>; rel="next"`` header; ``nrps_body``, when
  set, is answered instead, as it is (a malformed answer); ``nrps_status`` another status.
- ``/deep-links`` is the deep-linking return URL: it takes a response JWT only when signed with
  the tool's key (its JWKS) for this LMS, and keeps its content items in ``deep_links``.
- ``hits`` keeps the path of every request, so a test can tell nothing was fetched.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import jwt
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from codeblanks.sandbox.testing import wait_until
from codeblanks.web.teaching.lti import SENDER_NAME

CLIENT_ID = "codeblanks-tool"
LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DL_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DL_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
NRPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
DEPLOYMENT = "deployment-1"


@functools.cache
def platform_key() -> rsa.RSAPrivateKey:
    """The LMS's RSA key, made once per test process: making a 2048-bit key costs 75 ms of CPU,
    and each LTI test has an LMS of its own (a test about a stranger's key makes another)."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@functools.cache
def _tool_jwk():
    from jwcrypto.jwk import JWK

    return JWK.generate(kty="RSA", size=2048)


def give_the_tool_a_key() -> None:
    """The tool's key pair, made once per test process, stored as `lti_register` would make it
    when there is none (the browser tests' registrations still make theirs)."""
    from lti_tool.models import Key

    if not Key.objects.exists():
        Key.objects.create_from_jwk(_tool_jwk())


class Platform:
    def __init__(self, tool_url: str):
        self.tool_url = tool_url.rstrip("/")
        self.key = platform_key()
        self.kid = "platform-key-1"
        self.tokens: set[str] = set()
        self.scores: list[dict] = []
        self.refusals: list[str] = []
        self.hits: list[str] = []
        self.members: list[dict] = []
        self.page_size = 100
        self.nrps_body: bytes | None = None
        self.nrps_status = 200
        self.deep_links: list[list[dict]] = []
        self.scored = threading.Condition()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    # ---- what the operator gives CodeBlanks (codeblanks manage lti_register) -----------------
    def registration_args(self) -> list[str]:
        return [
            "--name",
            "Test LMS",
            "--issuer",
            self.url,
            "--client-id",
            CLIENT_ID,
            "--deployment-id",
            DEPLOYMENT,
            "--auth-url",
            f"{self.url}/auth",
            "--token-url",
            f"{self.url}/token",
            "--keyset-url",
            f"{self.url}/jwks",
        ]

    def jwks(self) -> dict:
        public = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [{**public, "kid": self.kid, "alg": "RS256", "use": "sig"}]}

    # ---- the claims of the services a launch may offer -------------------------------------
    def nrps_claim(self, url: str | None = None) -> dict:
        return {
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": url or f"{self.url}/memberships",
                "service_versions": ["2.0"],
            }
        }

    def deep_linking_claims(self, **settings) -> dict:
        """The claims of an LtiDeepLinkingRequest (its settings: ``settings`` replace or add)."""
        return {
            LTI + "message_type": "LtiDeepLinkingRequest",
            DL_SETTINGS: {
                "deep_link_return_url": f"{self.url}/deep-links",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["window", "iframe"],
                "accept_multiple": True,
                "data": "opaque-data-1",
                **settings,
            },
        }

    # ---- a launch --------------------------------------------------------------------------
    def id_token(
        self,
        *,
        nonce: str,
        sub: str,
        custom: dict,
        key=None,
        lineitem: int = 1,
        roles=("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",),
        claims: dict | None = None,
        drop: tuple[str, ...] = (),
    ) -> str:
        """The signed id_token; ``claims`` replace or add claims, ``drop`` leaves some out."""
        now = int(time.time())
        body = {
            "iss": self.url,
            "aud": CLIENT_ID,
            "azp": CLIENT_ID,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "given_name": "Ada",
            "name": "Ada Lovelace",
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": DEPLOYMENT,
            LTI + "target_link_uri": f"{self.tool_url}/lti/launch/",
            LTI + "resource_link": {"id": f"link-{lineitem}"},
            LTI + "roles": list(roles),
            LTI + "context": {
                "id": "course-1",
                "title": "Algebra",
            },
            LTI + "custom": custom,
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": [
                    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
                    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
                ],
                "lineitems": f"{self.url}/lineitems",
                "lineitem": f"{self.url}/lineitems/{lineitem}",
            },
        }
        body = {k: v for k, v in {**body, **(claims or {})}.items() if k not in drop}
        return jwt.encode(body, key or self.key, algorithm="RS256", headers={"kid": self.kid})

    def launch(self, browser: requests.Session, registration_uuid, **kwargs) -> requests.Response:
        """The learner clicks the link in the LMS: login initiation, authorisation, the
        launch posted to the tool. Answers the tool's answer to the launch (not followed)."""
        url, data = self.authorise(browser, registration_uuid, **kwargs)
        return browser.post(url, data=data, allow_redirects=False)

    def authorise(
        self,
        browser: requests.Session,
        registration_uuid,
        *,
        sub: str,
        custom: dict,
        key=None,
        lineitem: int = 1,
        nonce: str | None = None,
        claims: dict | None = None,
        drop: tuple[str, ...] = (),
    ) -> tuple[str, dict]:
        """The launch up to its post: the login initiation at the tool (its state cookie in
        ``browser``), then the URL and form the LMS has the browser post. Kept in
        ``last_launch``, with the nonce the tool gave in ``last_nonce`` (a replay's material)."""
        start = browser.get(
            f"{self.tool_url}/lti/login/{registration_uuid}/",
            params={
                "iss": self.url,
                "login_hint": sub,
                "target_link_uri": f"{self.tool_url}/lti/launch/",
                "client_id": CLIENT_ID,
                "lti_deployment_id": DEPLOYMENT,
            },
            allow_redirects=False,
        )
        assert start.status_code == 302, start.text
        auth = urlsplit(start.headers["Location"])
        asked = {k: v[0] for k, v in parse_qs(auth.query).items()}
        assert f"{auth.scheme}://{auth.netloc}{auth.path}" == f"{self.url}/auth"
        assert asked["client_id"] == CLIENT_ID and asked["response_mode"] == "form_post"
        assert asked["redirect_uri"] == f"{self.tool_url}/lti/launch/"
        token = self.id_token(
            nonce=nonce or asked["nonce"],
            sub=sub,
            custom=custom,
            key=key,
            lineitem=lineitem,
            claims=claims,
            drop=drop,
        )
        self.last_nonce = asked["nonce"]
        self.last_launch = {"id_token": token, "state": asked["state"]}
        return asked["redirect_uri"], dict(self.last_launch)

    def wait_for_scores(self, count: int, seconds: float = 30.0, until=None) -> list[dict]:
        """The scores received, once there are ``count`` and ``until(scores)`` holds, if given
        (a bound for the tool's threads, not a speed the test asks for)."""

        def ready() -> bool:
            return len(self.scores) >= count and (until is None or until(self.scores))

        with self.scored:
            self.scored.wait_for(ready, timeout=seconds)
            received = list(self.scores)
        # The tool's sending threads write down what they sent after the LMS answered; a
        # request made meanwhile would meet their lock on the suite's in-memory SQLite ("table
        # is locked", where a file database waits). Wait for them to be done.
        wait_until(
            lambda: not any(t.name == SENDER_NAME for t in threading.enumerate()),
            "the tool's score-sending threads to finish",
        )
        return received

    # ---- the platform's endpoints ----------------------------------------------------------
    def _token(self, form: dict) -> tuple[int, dict]:
        assertion = form.get("client_assertion", "")
        if form.get("grant_type") != "client_credentials" or form.get("client_assertion_type") != (
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        ):
            return 400, {"error": "unsupported_grant_type"}
        try:
            claims = self.tool_signed(assertion, audience=f"{self.url}/token")
        except (jwt.PyJWTError, LookupError) as exc:
            return 401, {"error": "invalid_client", "why": str(exc)}
        if claims.get("iss") != CLIENT_ID or claims.get("sub") != CLIENT_ID:
            return 401, {"error": "invalid_client", "why": "not this client"}
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 3600,
            "scope": form.get("scope", ""),
        }

    def tool_signed(self, token: str, audience: str) -> dict:
        """The claims of a JWT signed with one of the tool's keys (read from its JWKS) for
        ``audience``; PyJWTError when it is not, LookupError for a key the tool does not serve."""
        tool_keys = requests.get(f"{self.tool_url}/lti/jwks", timeout=10).json()["keys"]
        kid = jwt.get_unverified_header(token).get("kid")
        jwk = next((k for k in tool_keys if k.get("kid") == kid), None)
        if jwk is None:
            raise LookupError("unknown kid")
        return jwt.decode(
            token,
            RSAAlgorithm.from_jwk(json.dumps(jwk)),
            algorithms=["RS256"],
            audience=audience,
            options={"require": ["exp", "iat", "nonce"]} if audience == self.url else None,
        )

    def _memberships(self, query: str, bearer: str, accept: str) -> tuple[int, dict, dict]:
        """One page of the members: (status, body, headers)."""
        if bearer not in self.tokens:
            self.refusals.append("no valid access token")
            return 401, {"error": "unauthorized"}, {}
        if accept != NRPS_TYPE:
            self.refusals.append(accept)
            return 406, {"error": "membership media type"}, {}
        page = int(parse_qs(query).get("page", ["0"])[0])
        start = page * self.page_size
        body = {
            "id": f"{self.url}/memberships",
            "context": {"id": "course-1", "title": "Algebra"},
            "members": self.members[start : start + self.page_size],
        }
        more = start + self.page_size < len(self.members)
        headers = {"Link": f'<{self.url}/memberships?page={page + 1}>; rel="next"'} if more else {}
        return 200, body, headers

    def _deep_link_return(self, form: dict) -> tuple[int, dict]:
        try:
            claims = self.tool_signed(form.get("JWT", ""), audience=self.url)
        except (jwt.PyJWTError, LookupError) as exc:
            self.refusals.append(f"deep link: {exc}")
            return 401, {"error": "invalid deep-linking response", "why": str(exc)}
        if claims.get("iss") != CLIENT_ID or claims.get(LTI + "deployment_id") != DEPLOYMENT:
            self.refusals.append("deep link: not this client")
            return 401, {"error": "not this client"}
        if claims.get(LTI + "message_type") != "LtiDeepLinkingResponse":
            self.refusals.append("deep link: not a deep-linking response")
            return 400, {"error": "message type"}
        self.deep_links.append({"claims": claims, "items": claims.get(DL_ITEMS) or []})
        return 200, {"added": len(claims.get(DL_ITEMS) or [])}

    def _handler(self):
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status: int, body, headers=None, raw: bytes | None = None):
                data = raw if raw is not None else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                platform.hits.append(self.path)
                if self.path == "/jwks":
                    return self._answer(200, platform.jwks())
                if self.path == "/favicon.ico":  # a browser that came back asks for it
                    return self._answer(204, {}, raw=b"")
                path, _q, query = self.path.partition("?")
                if path == "/memberships":
                    bearer = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    status, body, headers = platform._memberships(
                        query, bearer, self.headers.get("Accept", "")
                    )
                    if status == 200:
                        status = platform.nrps_status
                    raw = platform.nrps_body if status == 200 else None
                    return self._answer(status, body, headers, raw=raw)
                return self._answer(404, {"error": "not found"})

            def do_POST(self):
                platform.hits.append(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                if self.path == "/deep-links":
                    form = {k: v[0] for k, v in parse_qs(body).items()}
                    return self._answer(*platform._deep_link_return(form))
                if self.path == "/token":
                    form = {k: v[0] for k, v in parse_qs(body).items()}
                    return self._answer(*platform._token(form))
                if self.path.startswith("/lineitems/") and self.path.endswith("/scores"):
                    bearer = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    if bearer not in platform.tokens:
                        platform.refusals.append("no valid access token")
                        return self._answer(401, {"error": "unauthorized"})
                    if self.headers.get("Content-Type") != "application/vnd.ims.lis.v1.score+json":
                        platform.refusals.append(self.headers.get("Content-Type", ""))
                        return self._answer(415, {"error": "score media type"})
                    with platform.scored:
                        platform.scores.append(
                            {"lineitem": self.path.split("/")[2], **json.loads(body)}
                        )
                        platform.scored.notify_all()
                    return self._answer(200, {})
                return self._answer(404, {"error": "not found"})

        return Handler


def new_sub() -> str:
    return str(uuid.uuid4())
