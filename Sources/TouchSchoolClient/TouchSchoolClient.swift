// The client module: a game's connection to `touchschool serve` (issue "Network play").
