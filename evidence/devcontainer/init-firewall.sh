#!/bin/bash
# Egress firewall for agent sessions. Runs once as the session container's
# postStartCommand (the only command the agent user may run with sudo).
#
# Differences from the upstream anthropics/claude-code script, on purpose:
# - DNS goes only to the cluster resolver, not UDP/53 to any host;
# - no outbound SSH (git uses HTTPS through the credential proxy);
# - no GitHub /meta ranges and no host /24: GitHub is reached only through
#   the credential proxy, which allows one repository;
# - IPv6 egress is dropped.
set -euo pipefail
IFS=$'\n\t'

RESOLVER_IP="10.96.0.10"       # cluster DNS service (CoreDNS), forwards to the resolver
PROXY_IP="10.96.12.40"         # credential proxy: model API (8080) and git (3128)
COLLECTOR_IP="10.96.14.7"      # OpenTelemetry collector (OTLP/HTTP)

iptables -F
iptables -X
iptables -t nat -F
iptables -t nat -X
iptables -t mangle -F
iptables -t mangle -X
ipset destroy agent-allow 2>/dev/null || true

# Loopback only; the container's own services are not reachable from outside.
iptables -A INPUT -i lo -j ACCEPT
iptables -A OUTPUT -o lo -j ACCEPT

# DNS to the named resolver only.
iptables -A OUTPUT -p udp -d "$RESOLVER_IP" --dport 53 -j ACCEPT
iptables -A OUTPUT -p tcp -d "$RESOLVER_IP" --dport 53 -j ACCEPT

# Credential proxy (model API and git) and log collector.
iptables -A OUTPUT -p tcp -d "$PROXY_IP" --dport 8080 -j ACCEPT
iptables -A OUTPUT -p tcp -d "$PROXY_IP" --dport 3128 -j ACCEPT
iptables -A OUTPUT -p tcp -d "$COLLECTOR_IP" --dport 4318 -j ACCEPT

# Package registries: HTTPS only, addresses resolved once at start-up.
ipset create agent-allow hash:ip
for domain in \
    "registry.npmjs.org" \
    "pypi.org" \
    "files.pythonhosted.org"; do
    ips=$(dig +short A "$domain" @"$RESOLVER_IP" | grep -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' || true)
    if [ -z "$ips" ]; then
        echo "ERROR: failed to resolve $domain" >&2
        exit 1
    fi
    while read -r ip; do
        ipset add agent-allow "$ip" -exist
    done <<< "$ips"
done

# Default deny, then the allowed traffic, then an explicit reject.
iptables -P INPUT DROP
iptables -P FORWARD DROP
iptables -P OUTPUT DROP
iptables -A INPUT -m state --state ESTABLISHED,RELATED -j ACCEPT
iptables -A OUTPUT -m state --state ESTABLISHED,RELATED -j ACCEPT
iptables -A OUTPUT -p tcp --dport 443 -m set --match-set agent-allow dst -j ACCEPT
iptables -A OUTPUT -j REJECT --reject-with icmp-admin-prohibited

ip6tables -P INPUT DROP
ip6tables -P FORWARD DROP
ip6tables -P OUTPUT DROP
ip6tables -A OUTPUT -o lo -j ACCEPT

# Self-test: an arbitrary host and GitHub (outside the proxy) must be unreachable.
for url in "https://example.com" "https://api.github.com/zen"; do
    if curl --silent --connect-timeout 5 "$url" >/dev/null 2>&1; then
        echo "ERROR: firewall self-test failed: reached $url" >&2
        exit 1
    fi
done
if ! curl --silent --connect-timeout 5 https://registry.npmjs.org/ >/dev/null 2>&1; then
    echo "ERROR: firewall self-test failed: cannot reach registry.npmjs.org" >&2
    exit 1
fi
echo "Firewall configured: default deny, DNS to $RESOLVER_IP only"
