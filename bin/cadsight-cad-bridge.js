#!/usr/bin/env node
import '../dist/node/cadBridge.js';
