#!/bin/sh
# Runs each case of isolation.swift in its own process (some are expected to crash).
cd "$(dirname "$0")"
swiftc -parse-as-library -swift-version 6 -O isolation.swift -o isolation 2>&1 | grep error
for c in main-actor-task mainqueue-block other-thread-with-main-identity plain-thread; do
  echo "$c:"; ./isolation $c 2>&1 | grep -v "^\*\*\*\|^0x\|^Current stack\|^#\|^$" | head -3; 
done
