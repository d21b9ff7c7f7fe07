import TouchSchoolCommandLine

// `touchschool-network`: every command of `touchschool`, with the network (`serve`, `--server`,
// `import --postgres`). `touchschool` hands those commands to this program (`NetworkHandOff`).
runTouchSchool(network: LiveNetwork())
