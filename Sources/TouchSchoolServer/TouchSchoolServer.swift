// The server module: `touchschool serve` (issue "Network play").
