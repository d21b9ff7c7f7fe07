import TouchSchoolCommandLine

// `touchschool`: the game and its local commands, without the network modules; what needs the
// network is handed to `touchschool-network` beside it (`NetworkHandOff`).
runTouchSchool(network: NetworkHandOff())
