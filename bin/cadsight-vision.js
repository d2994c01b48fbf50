#!/usr/bin/env node
import '../dist/node/visionMcp.js';
