import ArgumentParser
import TouchSchoolCore

// Placeholder until the command line lands.
print("touchschool")
